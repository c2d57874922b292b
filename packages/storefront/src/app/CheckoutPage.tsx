/**
 * `/checkout`: a mock checkout. The order is kept in this browser only (no payment, no server side), and a
 * purchase event is sent for the ordered products. The form is checked on submit: each problem is written
 * under its field, listed in an alert above the form, and the first invalid field gets the focus.
 */
import { pageTitles, useDocumentTitle } from '../lib/page-titles.ts';
import { useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { OrderSummary } from '../components/cart/OrderSummary.tsx';
import type { Order } from '../lib/cart.ts';
import { checkoutFields, validateCheckout } from '../lib/checkout-form.ts';
import type { CheckoutField, CheckoutValues } from '../lib/checkout-form.ts';
import { formatPrice } from '../lib/catalog.ts';
import { handleLinkClick } from '../lib/navigation.ts';
import { useCartLines, useServices } from '../lib/services.ts';
import { useFormat } from '../lib/format.ts';

const emptyForm = Object.fromEntries(checkoutFields.map((field) => [field.name, ''])) as CheckoutValues;

function Confirmation({ order }: { order: Order }) {
  const { config } = useServices();
  const price = (value: number) => formatPrice(value, order.currency, config.locale);
  return (
    <section className="vt-checkout vt-confirmation" aria-live="polite">
      <h1>Thank you!</h1>
      <p>
        Order <strong className="vt-order-id">{order.id}</strong> is placed: {price(order.total)}.
      </p>
      <ul className="vt-confirmation-lines">
        {order.lines.map((line) => (
          <li key={line.objectID}>
            <span className="vt-confirmation-name">{line.name}</span> <span>× {line.quantity}</span>{' '}
            <span className="vt-confirmation-total">{price(line.price * line.quantity)}</span>
          </li>
        ))}
      </ul>
      <p className="vt-confirmation-costs">
        Subtotal {price(order.subtotal)} · Shipping {order.shipping === 0 ? 'free' : price(order.shipping)} · Tax {price(order.tax)}
      </p>
      <a href="/" onClick={(event) => handleLinkClick(event, '/')}>
        Continue shopping
      </a>
    </section>
  );
}

export default function CheckoutPage() {
  useDocumentTitle(pageTitles.checkout);
  const { cart, config, insights } = useServices();
  const format = useFormat();
  const lines = useCartLines();
  const [order, setOrder] = useState<Order | null>(null);
  const [values, setValues] = useState<CheckoutValues>(emptyForm);
  const [errors, setErrors] = useState<Partial<Record<CheckoutField, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);

  if (order) return <Confirmation order={order} />;
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
    const found = validateCheckout(values);
    setErrors(found);
    const first = checkoutFields.find((field) => found[field.name]);
    if (first) {
      formRef.current?.querySelector<HTMLInputElement>(`[name="${first.name}"]`)?.focus();
      return;
    }
    const placed = cart.placeOrder(config.currency);
    insights?.purchased(placed.lines.map(({ objectID, price, quantity, queryID }) => ({ objectID, price, quantity, queryID })));
    setOrder(placed);
  };
  const problems = checkoutFields.filter((field) => errors[field.name]);

  return (
    <section className="vt-checkout">
      <h1>Checkout</h1>
      <div className="vt-cart-layout">
        <form ref={formRef} onSubmit={submit} className="vt-checkout-form" noValidate aria-describedby="vt-checkout-note">
          <p id="vt-checkout-note" className="vt-summary-note">This is a demonstration shop: no payment is taken.</p>
          <div role="alert" className="vt-form-problems">
            {problems.length > 0 && (
              <>
                <p>Please correct {problems.length === 1 ? 'this field' : `these ${problems.length} fields`}:</p>
                <ul>
                  {problems.map((field) => (
                    <li key={field.name}>{errors[field.name]}</li>
                  ))}
                </ul>
              </>
            )}
          </div>
          {checkoutFields.map((field) => {
            const error = errors[field.name];
            return (
              <div key={field.name} className="vt-field">
                <label htmlFor={`vt-checkout-${field.name}`}>{field.label}</label>
                <input
                  id={`vt-checkout-${field.name}`}
                  name={field.name}
                  type={'type' in field ? field.type : 'text'}
                  autoComplete={field.autoComplete}
                  value={values[field.name]}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `vt-checkout-${field.name}-error` : undefined}
                  onChange={(event) => setValues({ ...values, [field.name]: event.currentTarget.value })}
                />
                {error && (
                  <p id={`vt-checkout-${field.name}-error`} className="vt-field-error">
                    {error}
                  </p>
                )}
              </div>
            );
          })}
          <button type="submit" className="vt-primary">
            Place order
          </button>
        </form>
        <aside className="vt-cart-side">
          <OrderSummary lines={lines} />
          <ul className="vt-checkout-lines">
            {lines.map((line) => (
              <li key={line.objectID}>
                {line.name} × {line.quantity} <span>{format.price(line.price * line.quantity)}</span>
              </li>
            ))}
          </ul>
        </aside>
      </div>
    </section>
  );
}
