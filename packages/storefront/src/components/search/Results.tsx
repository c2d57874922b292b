import { memo } from 'react';
import type { ReactNode } from 'react';
import { Hits, InfiniteHits, Pagination } from 'react-instantsearch';
import type { Hit } from 'instantsearch.js';
import type { SendEventForHits } from 'instantsearch.js/es/lib/utils';
import createInfiniteHitsSessionStorageCache from 'instantsearch.js/es/lib/infiniteHitsCache/sessionStorage';
import type { Product } from '@vitrine/protocol';
import { ProductHit } from './ProductHit.tsx';
import { scrollToResultsTop } from './ScrollRestoration.tsx';
import { useViewMode } from './useViewMode.ts';
import { useSearchValue } from './use-search-value.ts';

// The pages already loaded in the infinite view survive leaving for a product page and coming Back.
const infiniteHitsCache = createInfiniteHitsSessionStorageCache();

type HitProps = { hit: Hit; sendEvent: SendEventForHits };

/** The same hit of the same answer: InstantSearch copies each hit on every render, its fields stay the same objects. */
function sameHit(previous: HitProps, next: HitProps): boolean {
  if (previous.sendEvent !== next.sendEvent) return false;
  const before = previous.hit as Record<string, unknown>;
  const after = next.hit as Record<string, unknown>;
  const keys = Object.keys(after);
  return keys.length === Object.keys(before).length && keys.every((key) => before[key] === after[key]);
}

// InstantSearch renders every widget again when a search starts (its status turns to loading), with the hits
// it already shows: those are not rendered again.
const HitComponent = memo(function HitComponent({ hit, sendEvent }: HitProps) {
  return <ProductHit hit={hit as unknown as Hit<Product>} sendEvent={sendEvent} />;
}, sameHit);

/** The result list in the chosen view. */
export function Results() {
  const { view } = useViewMode();

  if (view === 'infinite') {
    return <InfiniteHits hitComponent={HitComponent} showPrevious cache={infiniteHitsCache} />;
  }
  return (
    <>
      <Hits hitComponent={HitComponent} />
      <nav
        aria-label="Pagination"
        onClick={(event) => {
          // A plain click on a page link shows that page from its top; a modified click opens a tab instead.
          const link = (event.target as Element).closest('a.ais-Pagination-link');
          if (link && event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey) scrollToResultsTop();
        }}
      >
        <Pagination padding={3} />
      </nav>
    </>
  );
}

/**
 * While searches fail, the hits on screen belong to an older search: they stay (better than an empty page) but
 * are dimmed, marked and taken out of the tab order and the accessibility tree until a search succeeds.
 */
export function StaleWhileFailing({ children }: { children: ReactNode }) {
  const stale = useSearchValue((search) => search.status === 'error');
  return (
    <div className={stale ? 'vt-results-body vt-stale' : 'vt-results-body'} data-stale={stale} inert={stale}>
      {children}
    </div>
  );
}
