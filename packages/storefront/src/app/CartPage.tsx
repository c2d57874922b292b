/** `/cart`: quantities, line totals, the cart total, and the way to the mock checkout. */
import { useState } from 'react';
import { productPath } from '../lib/catalog.ts';
import { cartTotal, maxQuantity } from '../lib/cart.ts';
import { handleLinkClick } from '../lib/navigation.ts';
import { useCartLines, useFormat, useServices } from './services.ts';

/**
 * A quantity field that lets the shopper clear it and type a new number: a valid quantity applies at once,
 * an empty or invalid field goes back to the current quantity when it loses focus, and 0 removes the line.
 */
function QuantityInput({ quantity, onCommit }: { quantity: number; onCommit: (quantity: number) => void }) {
  const [draft, setDraft] = useState<string | null>(null);
  const commit = (text: string) => {
    if (/^\d{1,2}$/.test(text)) onCommit(Number(text));
    setDraft(null);
  };
  return (
    <label>
      Quantity{' '}
      <input
        type="number"
        inputMode="numeric"
        min={0}
        max={maxQuantity}
        value={draft ?? String(quantity)}
        onChange={(event) => {
          const text = event.target.value;
          if (/^\d{1,2}$/.test(text) && Number(text) > 0) commit(text);
          else setDraft(text);
        }}
        onBlur={(event) => commit(event.target.value)}
      />
    </label>
  );
}

export default function CartPage() {
  const { cart } = useServices();
  const format = useFormat();
  const lines = useCartLines();
  const price = (value: number) => format.price(value);
  if (lines.length === 0) {
    return (
      <section className="vt-cart">
        <h1>Your cart</h1>
        <p>Your cart is empty. <a href="/" onClick={(event) => handleLinkClick(event, '/')}>Continue shopping</a></p>
      </section>
    );
  }
  return (
    <section className="vt-cart">
      <h1>Your cart</h1>
      <ul className="vt-cart-lines">
        {lines.map((line) => {
          const href = productPath(line);
          return (
            <li key={line.objectID} className="vt-cart-line">
              <img src={line.image} alt="" width={64} height={64} />
              <a href={href} onClick={(event) => handleLinkClick(event, href)}>
                {line.name}
              </a>
              <QuantityInput quantity={line.quantity} onCommit={(quantity) => cart.setQuantity(line.objectID, quantity)} />
              <span className="vt-cart-line-total">{price(line.price * line.quantity)}</span>
              <button type="button" onClick={() => cart.setQuantity(line.objectID, 0)}>
                Remove<span className="vt-sr-only"> {line.name}</span>
              </button>
            </li>
          );
        })}
      </ul>
      <p className="vt-cart-total">
        Total: <strong>{price(cartTotal(lines))}</strong>
      </p>
      <a className="vt-primary" href="/checkout" onClick={(event) => handleLinkClick(event, '/checkout')}>
        Checkout
      </a>
    </section>
  );
}
