import { Hits, InfiniteHits, Pagination } from 'react-instantsearch';
import type { Hit } from 'instantsearch.js';
import type { SendEventForHits } from 'instantsearch.js/es/lib/utils';
import type { Product } from '@vitrine/protocol';
import { ProductHit } from './ProductHit.tsx';
import { useViewMode } from './useViewMode.ts';

function HitComponent({ hit, sendEvent }: { hit: Hit; sendEvent: SendEventForHits }) {
  return <ProductHit hit={hit as unknown as Hit<Product>} sendEvent={sendEvent} />;
}

/** The result list in the chosen view. */
export function Results() {
  const { view } = useViewMode();

  if (view === 'infinite') {
    return <InfiniteHits hitComponent={HitComponent} showPrevious />;
  }
  return (
    <>
      <Hits hitComponent={HitComponent} />
      <nav aria-label="Pagination">
        <Pagination padding={3} />
      </nav>
    </>
  );
}
