/** Small pieces every console screen uses: running an action with its outcome, alerts, typed confirmation. */
import { useCallback, useState } from 'react';
import type { ReactNode } from 'react';
import { describeError } from './access.ts';
import type { Acl } from './access.ts';

export type Outcome = { state: 'idle' } | { state: 'busy'; message: string } | { state: 'done'; message: string } | { state: 'error'; message: string };

/**
 * Runs one action at a time and tells the operator how it went: "busy" while the request (and its task) runs,
 * then a confirmation, or the error described with the ACL the action needs.
 */
export function useAction(): [Outcome, (what: { action: string; acl?: Acl | 'admin'; busy: string; done: string }, run: () => Promise<void>) => Promise<boolean>] {
  const [outcome, setOutcome] = useState<Outcome>({ state: 'idle' });
  const run = useCallback(async (what: { action: string; acl?: Acl | 'admin'; busy: string; done: string }, body: () => Promise<void>) => {
    setOutcome({ state: 'busy', message: what.busy });
    try {
      await body();
      setOutcome({ state: 'done', message: what.done });
      return true;
    } catch (error) {
      setOutcome({ state: 'error', message: describeError(error, what.action, what.acl) });
      return false;
    }
  }, []);
  return [outcome, run];
}

export function OutcomeLine({ outcome }: { outcome: Outcome }) {
  if (outcome.state === 'idle') return null;
  if (outcome.state === 'error') return <ErrorAlert message={outcome.message} />;
  return (
    <p className={`vt-console-status vt-console-status--${outcome.state}`} role="status">
      {outcome.message}
    </p>
  );
}

export function ErrorAlert({ message }: { message: string }) {
  return (
    <div className="vt-error" role="alert">
      <p>{message}</p>
    </div>
  );
}

/** A destructive action confirmed by typing the name it acts on (an index, a key). */
export function ConfirmByName({ name, action, onConfirm, onCancel }: { name: string; action: string; onConfirm: () => void; onCancel: () => void }) {
  const [typed, setTyped] = useState('');
  return (
    <form
      className="vt-console-confirm"
      onSubmit={(event) => {
        event.preventDefault();
        if (typed === name) onConfirm();
      }}
    >
      <label>
        Type <strong>{name}</strong> to {action}{' '}
        <input value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" spellCheck={false} aria-label={`Type ${name} to confirm`} />
      </label>
      <button type="submit" className="vt-danger" disabled={typed !== name}>
        {action[0].toUpperCase() + action.slice(1)}
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}

/** A screen's frame: heading, one-line purpose, and the body. */
export function Screen({ title, intro, children }: { title: string; intro: string; children: ReactNode }) {
  return (
    <section className="vt-console-screen" aria-labelledby="vt-console-screen-title">
      <h2 id="vt-console-screen-title">{title}</h2>
      <p className="vt-admin-hint">{intro}</p>
      {children}
    </section>
  );
}

/** A JSON draft being edited (a rule as Algolia's JSON): the text, what is wrong with it, save and close. */
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
      <textarea className="vt-console-json" aria-label={label} spellCheck={false} value={value} onChange={(event) => onChange(event.target.value)} />
      {problem && <ErrorAlert message={problem} />}
      <div className="vt-console-actions">
        <button type="button" className="vt-primary" onClick={onSave}>
          Save rule
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}

/** A table row's Edit and Delete buttons, named after the item for screen readers. */
export function RowActions({ name, onEdit, onDelete }: { name: string; onEdit: () => void; onDelete: () => void }) {
  return (
    <>
      <button type="button" aria-label={`Edit ${name}`} onClick={onEdit}>
        Edit
      </button>
      <button type="button" className="vt-danger" aria-label={`Delete ${name}`} onClick={onDelete}>
        Delete
      </button>
    </>
  );
}
