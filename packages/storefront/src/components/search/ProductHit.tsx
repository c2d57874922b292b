import { Highlight, Snippet } from 'react-instantsearch';
import type { Hit } from 'instantsearch.js';
import type { SendEventForHits } from 'instantsearch.js/es/lib/utils';
import type { Product } from '@vitrine/protocol';
import { useServices } from '../../lib/services.ts';
import { useFormat } from '../../lib/format.ts';
import { productPath } from '../../lib/catalog.ts';
import { handleLinkClick } from '../../lib/navigation.ts';
import { usePictureShown } from '../../lib/typing-pause.ts';
import { Stars } from '../product/Stars.tsx';

/**
 * One result. Record text reaches the page only through React text nodes and react-instantsearch's
 * Highlight/Snippet (which split on the highlight tags and escape the rest), so HTML in a record stays inert.
 */
export function ProductHit({ hit, sendEvent }: { hit: Hit<Product>; sendEvent: SendEventForHits }) {
  const { insights } = useServices();
  const format = useFormat();
  const href = productPath(hit);
  // A result that appears while the shopper types shows its picture's box, and the picture at the next pause.
  const pictureShown = usePictureShown();
  return (
    <article className="vt-hit">
      <a
        className="vt-hit-link"
        href={href}
        onClick={(event) => {
          sendEvent('click', hit, 'Product Clicked');
          insights?.rememberQueryID(hit.objectID, hit.__queryID);
          handleLinkClick(event, href);
        }}
      >
        <img className="vt-hit-image" src={pictureShown ? hit.image : undefined} alt="" width={160} height={160} loading="lazy" decoding="async" />
        <h2 className="vt-hit-name">
          <Highlight attribute="name" hit={hit} />
        </h2>
      </a>
      <p className="vt-hit-brand">{hit.brand}</p>
      <p className="vt-hit-description">
        <Snippet attribute="description" hit={hit} />
      </p>
      <div className="vt-hit-meta">
        <span className="vt-price">{format.price(hit.price)}</span>
        <Stars rating={hit.rating} count={hit.reviewCount} />
        {hit.free_shipping && <span className="vt-badge">Free shipping</span>}
      </div>
    </article>
  );
}
