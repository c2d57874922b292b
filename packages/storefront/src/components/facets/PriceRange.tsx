import { useId, useState } from 'react';
import { useRange } from 'react-instantsearch';
import { useFormat } from '../../lib/format.ts';

type Bounds = { from: string; to: string };

const finite = (value: number | undefined): value is number => typeof value === 'number' && Number.isFinite(value);

function boundsText([min, max]: readonly [number | undefined, number | undefined]): Bounds {
  return { from: finite(min) ? String(min) : '', to: finite(max) ? String(max) : '' };
}

/** A typed price: empty is "no bound", anything else must be a non-negative number with at most two decimals. */
function parsePrice(text: string): number | undefined | null {
  if (text.trim() === '') return undefined;
  return /^\d+(?:[.,]\d{1,2})?$/.test(text.trim()) ? Number(text.trim().replace(',', '.')) : null;
}

interface PriceInputProps {
  bound: 'min' | 'max';
  value: string;
  placeholder: number | undefined;
  /** The id of the message explaining why the value was refused, if it was. */
  invalidBy: string | undefined;
  onChange(value: string): void;
}

function PriceInput({ bound, value, placeholder, invalidBy, onChange }: PriceInputProps) {
  return (
    <label className="ais-RangeInput-label">
      <span className="vt-sr-only">{bound === 'min' ? 'Minimum price' : 'Maximum price'}</span>
      <input
        className={`ais-RangeInput-input ais-RangeInput-input--${bound}`}
        type="number"
        inputMode="decimal"
        step="0.01"
        min={0}
        placeholder={placeholder === undefined ? undefined : String(placeholder)}
        value={value}
        aria-describedby={invalidBy}
        aria-invalid={invalidBy ? true : undefined}
        onChange={(event) => onChange(event.currentTarget.value)}
      />
    </label>
  );
}

/**
 * The price filter: the stock RangeInput's markup, texts ("to", "Go") and classes, with cents allowed (prices
 * end in .99) and a message instead of a silent no-op when the bounds can't be used (minimum above maximum).
 */
export function PriceRange({ attribute = 'price' }: { attribute?: string }) {
  const { start, range, canRefine, refine } = useRange({ attribute, precision: 2 });
  const format = useFormat();
  const messageId = useId();
  const [typed, setTyped] = useState<Bounds>(() => boundsText(start));
  const [applied, setApplied] = useState(start);
  const [message, setMessage] = useState('');
  // A refinement changed elsewhere (a chip removed, the URL): show it.
  if (applied[0] !== start[0] || applied[1] !== start[1]) {
    setApplied(start);
    setTyped(boundsText(start));
    setMessage('');
  }

  const submit = () => {
    const from = parsePrice(typed.from);
    const to = parsePrice(typed.to);
    if (from === null || to === null) return setMessage('Enter prices as numbers, such as 19.99.');
    if (from !== undefined && to !== undefined && from > to) {
      return setMessage(`The minimum (${format.price(from)}) is above the maximum (${format.price(to)}).`);
    }
    setMessage('');
    refine([from, to]);
  };

  return (
    <div className={`ais-RangeInput${canRefine ? '' : ' ais-RangeInput--noRefinement'}`}>
      <form
        className="ais-RangeInput-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <PriceInput bound="min" value={typed.from} invalidBy={message ? messageId : undefined} placeholder={range.min} onChange={(from) => setTyped({ ...typed, from })} />
        <span className="ais-RangeInput-separator">to</span>
        <PriceInput bound="max" value={typed.to} invalidBy={message ? messageId : undefined} placeholder={range.max} onChange={(to) => setTyped({ ...typed, to })} />
        <button className="ais-RangeInput-submit" type="submit">
          Go
        </button>
      </form>
      <p id={messageId} className="vt-field-error" role="alert" hidden={!message}>
        {message}
      </p>
    </div>
  );
}
