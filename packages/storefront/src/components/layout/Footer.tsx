import { handleLinkClick } from '../../lib/navigation.ts';

/** The shop's footer, on every page. */
export function Footer() {
  return (
    <footer className="vt-footer">
      <nav aria-label="Shop">
        <a href="/" onClick={(event) => handleLinkClick(event, '/')}>
          Home
        </a>
        <a href="/cart" onClick={(event) => handleLinkClick(event, '/cart')}>
          Cart
        </a>
        <a href="/help" onClick={(event) => handleLinkClick(event, '/help')}>
          Help
        </a>
      </nav>
      <p>Vitrine is a demonstration shop: orders stay in this browser and no payment is taken.</p>
    </footer>
  );
}
