/** `/cart`: each line with its unit price, a quantity stepper and line total; the order summary; the way to checkout. */
import { pageTitles, useDocumentTitle } from '../lib/page-titles.ts';
import { OrderSummary } from '../components/cart/OrderSummary.tsx';
import { QuantityStepper } from '../components/product/QuantityStepper.tsx';
import { productPath } from '../lib/catalog.ts';
import { handleLinkClick } from '../lib/navigation.ts';
import { useCartLines, useServices } from '../lib/services.ts';
import { useFormat } from '../lib/format.ts';

export default function CartPage() {
  useDocumentTitle(pageTitles.cart);
  const { cart } = useServices();
  const format = useFormat();
  const lines = useCartLines();
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
      <div className="vt-cart-layout">
        <ul className="vt-cart-lines">
          {lines.map((line) => {
            const href = productPath(line);
            return (
              <li key={line.objectID} className="vt-cart-line">
                <img className="vt-cart-line-image" src={line.image} alt="" width={64} height={64} />
                <a className="vt-cart-line-name" href={href} onClick={(event) => handleLinkClick(event, href)}>
                  {line.name}
                </a>
                <span className="vt-cart-line-price">{format.price(line.price)} each</span>
                <span className="vt-cart-line-quantity">
                  <QuantityStepper label={`Quantity of ${line.name}`} quantity={line.quantity} onChange={(quantity) => cart.setQuantity(line.objectID, quantity)} />
                </span>
                <span className="vt-cart-line-total">{format.price(line.price * line.quantity)}</span>
                <button type="button" className="vt-cart-line-remove" onClick={() => cart.setQuantity(line.objectID, 0)}>
                  Remove<span className="vt-sr-only"> {line.name}</span>
                </button>
              </li>
            );
          })}
        </ul>
        <aside className="vt-cart-side">
          <OrderSummary lines={lines} />
          <a className="vt-primary vt-checkout-link" href="/checkout" onClick={(event) => handleLinkClick(event, '/checkout')}>
            Checkout
          </a>
        </aside>
      </div>
    </section>
  );
}
