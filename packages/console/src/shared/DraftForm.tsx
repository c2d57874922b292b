/**
 * The editor of an item kept both as a form and as Algolia's JSON (a rule, a synonym): the Form/JSON switch,
 * the form's fields or the JSON, what is wrong, Save and Close.
 */
import type { ReactNode } from 'react';
import { FormActions, JsonArea, ModeSwitch } from './form.tsx';
import { ErrorAlert } from './status.tsx';
import type { FormJsonDraft } from './use-form-json.ts';

export function DraftForm<T, F>({ name, draft, fields, problem, save, close, cancel }: {
  /** The item's kind ("Rule"): the form's name, its JSON's label ("Rule JSON") and its Save button ("Save rule"). */
  name: string;
  draft: FormJsonDraft<T, F>;
  fields: (form: F, onChange: (form: F) => void) => ReactNode;
  problem: string;
  save: () => void;
  close: () => void;
  cancel?: string;
}) {
  return (
    <form
      className="vt-console-panel"
      aria-label={name}
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <h3>{name}</h3>
      <ModeSwitch mode={draft.mode} onMode={draft.setMode} formBlocked={draft.formBlocked} />
      {draft.form !== undefined ? fields(draft.form, draft.setForm) : <JsonArea label={`${name} JSON`} value={draft.text} onChange={draft.setText} />}
      {problem && <ErrorAlert message={problem} />}
      <FormActions submit={`Save ${name.toLowerCase()}`} cancel={cancel} onCancel={close} />
    </form>
  );
}
