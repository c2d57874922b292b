/** An ordered list of (attribute, modifier) rows: edit, reorder, add, remove. Order matters for most settings. */
import type { Row } from './settings-form.ts';

export function ListEditor({ label, rows, modifiers, onChange, readOnly }: { label: string; rows: Row[]; modifiers: readonly string[]; onChange: (rows: Row[]) => void; readOnly: boolean }) {
  const set = (index: number, row: Row) => onChange(rows.map((current, i) => (i === index ? row : current)));
  const move = (index: number, by: number) => {
    const next = [...rows];
    const [row] = next.splice(index, 1);
    next.splice(index + by, 0, row);
    onChange(next);
  };
  return (
    <ol className="vt-console-list" aria-label={label}>
      {rows.map((row, index) => (
        <li key={index} className="vt-console-inline">
          <input aria-label={`${label} ${index + 1}`} value={row.value} onChange={(event) => set(index, { ...row, value: event.target.value })} readOnly={readOnly} />
          {modifiers.length > 1 && (
            <select aria-label={`${label} ${index + 1} mode`} value={row.modifier} onChange={(event) => set(index, { ...row, modifier: event.target.value })} disabled={readOnly}>
              {modifiers.map((modifier) => (
                <option key={modifier} value={modifier}>
                  {modifier}
                </option>
              ))}
            </select>
          )}
          {!readOnly && (
            <>
              <button type="button" aria-label={`Move ${row.value || "row"} up in ${label.toLowerCase()}`} disabled={index === 0} onClick={() => move(index, -1)}>
                ↑
              </button>
              <button type="button" aria-label={`Move ${row.value || "row"} down in ${label.toLowerCase()}`} disabled={index === rows.length - 1} onClick={() => move(index, 1)}>
                ↓
              </button>
              <button type="button" aria-label={`Remove ${row.value || "row"} from ${label.toLowerCase()}`} onClick={() => onChange(rows.filter((_, i) => i !== index))}>
                ×
              </button>
            </>
          )}
        </li>
      ))}
      {!readOnly && (
        <li>
          <button type="button" onClick={() => onChange([...rows, { value: '', modifier: modifiers[0] }])}>
            Add to {label.toLowerCase()}
          </button>
        </li>
      )}
    </ol>
  );
}
