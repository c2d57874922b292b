import { useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { ClearRefinements, useInstantSearch } from 'react-instantsearch';
import { useServices } from '../../app/services.ts';
import { listRefinements, searchParamsFor } from '../../lib/refinements.ts';
import type { StorefrontIndexUiState } from '../../routing.ts';

/**
 * Shows `fallback` instead of the results when a real (not placeholder) response has no hits. Checking
 * `__isArtificial` keeps "no results" from flashing before the first response arrives.
 */
export function NoResultsBoundary({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const { results, status } = useInstantSearch();
  if (!results.__isArtificial && results.nbHits === 0 && status !== 'error') return <>{fallback}</>;
  return <>{children}</>;
}

/**
 * A no-results page that helps: it repeats the query and lists each active refinement with the number of
 * results the search would have without it (one query per refinement, sent together in one request).
 */
export function NoResults() {
  const { indexUiState, setIndexUiState } = useInstantSearch();
  const { searchClient, config } = useServices();
  const state = indexUiState as StorefrontIndexUiState;
  const stateKey = JSON.stringify(state);
  const refinements = useMemo(() => listRefinements(JSON.parse(stateKey) as StorefrontIndexUiState), [stateKey]);
  const [counts, setCounts] = useState<{ key: string; values: number[] } | null>(null);

  useEffect(() => {
    if (refinements.length === 0) return;
    let cancelled = false;
    const base = JSON.parse(stateKey) as StorefrontIndexUiState;
    searchClient
      .search({
        requests: refinements.map((refinement) => ({
          indexName: config.indexName,
          ...searchParamsFor(refinement.remove(base)),
          hitsPerPage: 0,
          analytics: false,
        })),
      })
      .then(({ results }) => {
        if (cancelled) return;
        setCounts({ key: stateKey, values: results.map((result) => ('nbHits' in result ? (result.nbHits ?? 0) : 0)) });
      })
      .catch(() => {
        // The counts are a hint; without them the shopper can still remove refinements.
      });
    return () => {
      cancelled = true;
    };
  }, [refinements, stateKey, searchClient, config.indexName]);

  const shown = counts?.key === stateKey ? counts.values : undefined;
  return (
    <section className="vt-no-results" aria-labelledby="vt-no-results-title">
      <h2 id="vt-no-results-title">
        {state.query ? `No results for “${state.query}”` : 'No results'}
      </h2>
      {refinements.length > 0 ? (
        <>
          <p>Try removing a filter:</p>
          <ul className="vt-no-results-list">
            {refinements.map((refinement, index) => (
              <li key={refinement.key}>
                <button type="button" onClick={() => setIndexUiState((previous) => refinement.remove(previous as StorefrontIndexUiState))}>
                  Remove “{refinement.label}”
                </button>{' '}
                <span className="vt-no-results-count">
                  {shown === undefined ? '…' : `${shown[index]} result${shown[index] === 1 ? '' : 's'} without it`}
                </span>
              </li>
            ))}
          </ul>
          <ClearRefinements />
        </>
      ) : (
        <p>Check the spelling or try fewer or more general words.</p>
      )}
    </section>
  );
}
