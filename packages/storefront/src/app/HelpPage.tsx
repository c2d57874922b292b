/** `/help`: how the shop works, in a few answers (the demo's "help" search leads here through a rule's redirect). */
import { pageTitles, useDocumentTitle } from '../lib/page-titles.ts';
import { handleLinkClick } from '../lib/navigation.ts';

export default function HelpPage() {
  useDocumentTitle(pageTitles.help);
  return (
    <section className="vt-help">
      <h1>Help</h1>
      <h2>Finding products</h2>
      <p>
        Type in the search box at the top of every page, then narrow the results with the filters beside them:
        category, brand, colour, price, rating and free shipping.
      </p>
      <h2>Your cart and orders</h2>
      <p>
        Your cart stays in this browser. Checkout takes your name and address but no payment: Vitrine is a
        demonstration shop, and orders are kept in this browser only.
      </p>
      <h2>Delivery</h2>
      <p>Delivery takes 2–4 working days; it is free from $50.00 or when every product in the cart ships free.</p>
      <p>
        <a href="/" onClick={(event) => handleLinkClick(event, '/')}>
          Continue shopping
        </a>
      </p>
    </section>
  );
}
