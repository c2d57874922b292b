/**
 * An InstantSearch of its own for recommendation widgets. It sends recommendation requests only (no search),
 * and keeps them apart from any search on the page: the search page's status (stalled, error and Retry) then
 * describes the search alone, and a carousel appearing or going away never re-runs the search.
 */
import type { ReactNode } from 'react';
import { InstantSearch } from 'react-instantsearch';
import { useServices } from '../../app/services.ts';

export function RecommendScope({ children }: { children: ReactNode }) {
  const { config, searchClient, insights } = useServices();
  return (
    <InstantSearch
      searchClient={searchClient}
      indexName={config.indexName}
      insights={insights ? insights.middleware : false}
      future={{ preserveSharedStateOnUnmount: true }}
    >
      {children}
    </InstantSearch>
  );
}
