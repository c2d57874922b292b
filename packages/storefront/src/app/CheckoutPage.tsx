/**
 * `/checkout`: a mock checkout. The order is kept in this browser only (no payment, no server side), and a
 * purchase event is sent for the ordered products.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { formatPrice } from '../lib/catalog.ts';
import { cartTotal } from '../lib/cart.ts';
import type { Order } from '../lib/cart.ts';
import { handleLinkClick } from '../lib/navigation.ts';
import { useCartLines, useFormat, useServices } from './services.ts';

export default function CheckoutPage() {
  const { cart, config, insights } = useServices();
  const format = useFormat();
  const lines = useCartLines();
  const [order, setOrder] = useState<Order | null>(null);

  if (order) {
    return (
      <section className="vt-checkout" aria-live="polite">
        <h1>Thank you!</h1>
        <p>
          Order <strong className="vt-order-id">{order.id}</strong> is placed: {formatPrice(order.total, order.currency, config.locale)}.
        </p>
        <a href="/" onClick={(event) => handleLinkClick(event, '/')}>Continue shopping</a>
      </section>
    );
  }
  if (lines.length === 0) {
    return (
      <section className="vt-checkout">
        <h1>Checkout</h1>
        <p>Your cart is empty. <a href="/" onClick={(event) => handleLinkClick(event, '/')}>Continue shopping</a></p>
      </section>
    );
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const placed = cart.placeOrder(config.currency);
    insights?.purchased(placed.lines.map(({ objectID, price, quantity, queryID }) => ({ objectID, price, quantity, queryID })));
    setOrder(placed);
  };

  return (
    <section className="vt-checkout">
      <h1>Checkout</h1>
      <p>
        {lines.length} product{lines.length === 1 ? '' : 's'}, total <strong>{format.price(cartTotal(lines))}</strong>.
        This is a demonstration shop: no payment is taken.
      </p>
      <form onSubmit={submit} className="vt-checkout-form">
        <label>
          Name <input name="name" autoComplete="name" required />
        </label>
        <label>
          Email <input name="email" type="email" autoComplete="email" required />
        </label>
        <button type="submit" className="vt-primary">
          Place order
        </button>
      </form>
    </section>
  );
}
