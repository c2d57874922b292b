/**
 * An InstantSearch of its own for recommendation widgets. It sends recommendation requests only (no search),
 * and keeps them apart from any search on the page: the search page's status (stalled, error and Retry) then
 * describes the search alone, and a carousel appearing or going away never re-runs the search.
 *
 * Inside a server-rendered search page it must not see that page's server state: react-instantsearch hands
 * every InstantSearch under the same `InstantSearchSSRProvider` one instance (the provider's), so the carousel's
 * widgets would join the search page's instance and re-run its search once mounted.
 */
import type { ReactNode } from 'react';
import { InstantSearch, InstantSearchSSRContext } from 'react-instantsearch';
import { useServices } from '../../lib/services.ts';

export function RecommendScope({ children }: { children: ReactNode }) {
  const { config, searchClient, insights } = useServices();
  return (
    <InstantSearchSSRContext.Provider value={null}>
    <InstantSearch
      searchClient={searchClient}
      indexName={config.indexName}
      insights={insights ? insights.middleware : false}
      future={{ preserveSharedStateOnUnmount: true }}
    >
      {children}
    </InstantSearch>
    </InstantSearchSSRContext.Provider>
  );
}
