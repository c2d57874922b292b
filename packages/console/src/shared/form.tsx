/**
 * Form pieces every screen uses: a labelled field with its one-line help, the buttons that end a form, and
 * the editor of an item kept as Algolia's JSON (a Recommend rule; a rule or synonym in advanced mode).
 */
import type { ReactNode } from 'react';
import { ErrorAlert } from './status.tsx';

/** A label, an optional line of help under it, and its control (an input, a select). */
export function Field({ label, hint, children }: { label: string; hint?: string; children: ReactNode }) {
  return (
    <label className="vt-console-field">
      <span>{label}</span>
      {hint && <small className="vt-admin-hint">{hint}</small>}
      {children}
    </label>
  );
}

/** Fields that go together, under a legend and an optional line of help. */
export function FieldGroup({ legend, hint, children }: { legend: string; hint?: string; children: ReactNode }) {
  return (
    <fieldset className="vt-console-group">
      <legend>{legend}</legend>
      {hint && <p className="vt-admin-hint">{hint}</p>}
      {children}
    </fieldset>
  );
}

/** A checkbox and its label. */
export function CheckField({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="vt-console-check">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} /> {label}
    </label>
  );
}

/** A text field; `value` is the text as typed. */
export function TextField({ label, hint, value, onChange, required, placeholder }: {
  label: string;
  hint?: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
  placeholder?: string;
}) {
  return (
    <Field label={label} hint={hint}>
      <input value={value} onChange={(event) => onChange(event.target.value)} required={required} placeholder={placeholder} />
    </Field>
  );
}

/** The primary button (submit) and Cancel/Close. */
export function FormActions({ submit, onCancel, cancel = 'Cancel', onSubmit }: { submit: string; onCancel: () => void; cancel?: string; onSubmit?: () => void }) {
  return (
    <div className="vt-console-actions">
      <button type={onSubmit ? 'button' : 'submit'} className="vt-primary" onClick={onSubmit}>
        {submit}
      </button>
      <button type="button" onClick={onCancel}>
        {cancel}
      </button>
    </div>
  );
}

/** The JSON of an item being edited: its text area (named `label`), what is wrong with it. */
export function JsonArea({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  return <textarea className="vt-console-json" aria-label={label} spellCheck={false} value={value} onChange={(event) => onChange(event.target.value)} />;
}

/** A JSON draft being edited (a Recommend rule): the text, what is wrong with it, save and close. */
export function JsonDraft({ title, label, value, onChange, problem, onSave, onClose }: {
  title: string;
  /** The text area's accessible name. */
  label: string;
  value: string;
  onChange: (value: string) => void;
  problem: string;
  onSave: () => void;
  onClose: () => void;
}) {
  return (
    <div className="vt-console-panel">
      <h3>{title}</h3>
      <JsonArea label={label} value={value} onChange={onChange} />
      {problem && <ErrorAlert message={problem} />}
      <FormActions submit="Save rule" onSubmit={onSave} cancel="Close" onCancel={onClose} />
    </div>
  );
}

export type EditorMode = 'form' | 'json';

/**
 * The switch between an item's form and its JSON (advanced mode). `formBlocked` says why the form cannot show
 * the JSON as it stands (the Form button then stays disabled and the reason is shown).
 */
export function ModeSwitch({ mode, onMode, formBlocked }: { mode: EditorMode; onMode: (mode: EditorMode) => void; formBlocked?: string }) {
  return (
    <div className="vt-console-modes">
      <div role="group" aria-label="Edit as" className="vt-console-actions">
        <button type="button" aria-pressed={mode === 'form'} disabled={mode === 'json' && Boolean(formBlocked)} onClick={() => onMode('form')}>
          Form
        </button>
        <button type="button" aria-pressed={mode === 'json'} onClick={() => onMode('json')}>
          JSON
        </button>
      </div>
      {mode === 'json' && formBlocked && (
        <p className="vt-admin-hint" data-testid="form-blocked">
          The form cannot show this as it stands: {formBlocked}
        </p>
      )}
    </div>
  );
}
