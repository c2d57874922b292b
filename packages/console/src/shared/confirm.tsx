/** Confirmations before a destructive action. */
import { useState } from 'react';

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
