import { useFormat } from '../../lib/format.ts';
import type { CartLine } from '../../lib/cart.ts';
import { freeShippingFrom, orderSummary } from '../../lib/shipping.ts';

/** Items, goods, delivery, tax and total: the same figures on the cart, the checkout and the confirmation. */
export function OrderSummary({ lines, title = 'Order summary' }: { lines: CartLine[]; title?: string }) {
  const format = useFormat();
  const summary = orderSummary(lines);
  return (
    <section className="vt-summary" aria-labelledby="vt-summary-title">
      <h2 id="vt-summary-title">{title}</h2>
      <dl>
        <div>
          <dt>Items</dt>
          <dd className="vt-summary-items">{format.number(summary.items)}</dd>
        </div>
        <div>
          <dt>Subtotal</dt>
          <dd className="vt-summary-subtotal">{format.price(summary.subtotal)}</dd>
        </div>
        <div>
          <dt>Shipping</dt>
          <dd className="vt-summary-shipping">{summary.shipping === 0 ? 'Free' : format.price(summary.shipping)}</dd>
        </div>
        <div>
          <dt>Tax (8 %)</dt>
          <dd className="vt-summary-tax">{format.price(summary.tax)}</dd>
        </div>
        <div className="vt-summary-total-row">
          <dt>Total</dt>
          <dd className="vt-summary-total">{format.price(summary.total)}</dd>
        </div>
      </dl>
      {summary.shipping > 0 && <p className="vt-summary-note">Free shipping from {format.price(freeShippingFrom)}.</p>}
    </section>
  );
}
