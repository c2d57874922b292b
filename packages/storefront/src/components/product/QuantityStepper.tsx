import { useState } from 'react';
import { maxQuantity } from '../../lib/cart.ts';

export interface QuantityStepperProps {
  quantity: number;
  /** Called with a whole number from `min` to 99, never while the field holds something else. */
  onChange(quantity: number): void;
  /** The accessible name of the field ("Quantity", "Quantity of <product>"). */
  label: string;
  min?: number;
  /** Every control disabled (the page is not live yet). */
  disabled?: boolean;
}

/**
 * − [n] + for a quantity from `min` to 99. The field may be cleared and retyped: until it holds a valid number
 * nothing changes (so no total is computed from a half-typed value), and leaving it empty or invalid puts the
 * current quantity back.
 */
export function QuantityStepper({ quantity, onChange, label, min = 1, disabled = false }: QuantityStepperProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const valid = (text: string) => /^\d{1,2}$/.test(text) && Number(text) >= min && Number(text) <= maxQuantity;
  return (
    <span className="vt-stepper" role="group" aria-label={label}>
      <button type="button" aria-label={`Decrease ${label.toLowerCase()}`} disabled={disabled || quantity <= min} onClick={() => onChange(Math.max(min, quantity - 1))}>
        −
      </button>
      <input
        type="text"
        inputMode="numeric"
        pattern="[0-9]*"
        aria-label={label}
        disabled={disabled}
        value={draft ?? String(quantity)}
        onChange={(event) => {
          const text = event.currentTarget.value;
          if (valid(text)) {
            setDraft(null);
            onChange(Number(text));
          } else setDraft(text);
        }}
        onBlur={() => setDraft(null)}
      />
      <button type="button" aria-label={`Increase ${label.toLowerCase()}`} disabled={disabled || quantity >= maxQuantity} onClick={() => onChange(Math.min(maxQuantity, quantity + 1))}>
        +
      </button>
    </span>
  );
}
