import type { ReactNode } from 'react';
import { useCartLines } from '../../lib/services.ts';
import { cartCount } from '../../lib/cart.ts';
import { handleLinkClick } from '../../lib/navigation.ts';

/** Shop name, the search box (the search page's own, or `HeaderSearch` elsewhere) and the cart link with its item count. */
/** `onHome`: on the search page the logo resets the search in place instead of loading the page again. */
export function Header({ children, onHome }: { children?: ReactNode; onHome?: () => void }) {
  const count = cartCount(useCartLines());
  return (
    <header className="vt-header">
      <a className="vt-logo" href="/" onClick={(event) => {
          if (onHome && event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey) {
            event.preventDefault();
            onHome();
          } else handleLinkClick(event, '/');
        }}
      >
        Vitrine
      </a>
      <div className="vt-header-search">{children}</div>
      <a className="vt-cart-link" href="/cart" onClick={(event) => handleLinkClick(event, '/cart')}>
        Cart <span className="vt-cart-count" aria-label={`${count} items`}>{count}</span>
      </a>
    </header>
  );
}
