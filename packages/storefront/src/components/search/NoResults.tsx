import { useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { ClearRefinements, useInstantSearch } from 'react-instantsearch';
import { useServices } from '../../lib/services.ts';
import { useFormat } from '../../lib/format.ts';
import { categoryAttributes } from '../../lib/catalog.ts';
import { relaxedQueries } from '../../lib/relax-query.ts';
import { listRefinements, searchParamsFor } from '../../lib/refinements.ts';
import type { StorefrontIndexUiState } from '../../lib/search-state.ts';

/**
 * Shows `fallback` instead of the results when a real (not placeholder) response has no hits. Checking
 * `__isArtificial` keeps "no results" from flashing before the first response arrives.
 */
export function NoResultsBoundary({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const { results, status } = useInstantSearch();
  if (!results.__isArtificial && results.nbHits === 0 && status !== 'error') return <>{fallback}</>;
  return <>{children}</>;
}

interface Alternatives {
  key: string;
  /** Results without each active refinement, in `listRefinements` order. */
  withoutRefinement: number[];
  /** Results for each shorter query (same filters), in `relaxedQueries` order. */
  relaxed: number[];
}

/** One request for every alternative: each refinement removed, each shorter query. */
function useAlternatives(stateKey: string, refinementCount: number, shorter: string[]): Alternatives | null | 'failed' {
  const { searchClient, config } = useServices();
  const [alternatives, setAlternatives] = useState<Alternatives | 'failed' | null>(null);
  useEffect(() => {
    const state = JSON.parse(stateKey) as StorefrontIndexUiState;
    const refinements = listRefinements(state);
    const requests = [
      ...refinements.map((refinement) => searchParamsFor(refinement.remove(state))),
      ...shorter.map((query) => ({ ...searchParamsFor(state), query })),
    ];
    if (requests.length === 0) return;
    let cancelled = false;
    searchClient
      .search({ requests: requests.map((params) => ({ indexName: config.indexName, ...params, hitsPerPage: 0, analytics: false })) })
      .then(({ results }) => {
        if (cancelled) return;
        const counts = results.map((result) => ('nbHits' in result ? (result.nbHits ?? 0) : 0));
        setAlternatives({ key: stateKey, withoutRefinement: counts.slice(0, refinementCount), relaxed: counts.slice(refinementCount) });
      })
      .catch(() => {
        // The alternatives are a hint; "Clear refinements" and the search box still work.
        if (!cancelled) setAlternatives('failed');
      });
    return () => {
      cancelled = true;
    };
  }, [stateKey, refinementCount, shorter, searchClient, config.indexName]);
  return alternatives === 'failed' || alternatives?.key === stateKey ? alternatives : null;
}

const plural = (count: number, format: (value: number) => string) => `${format(count)} result${count === 1 ? '' : 's'}`;

/**
 * A no-results page that helps: it repeats the query and the category it was searched in, offers shorter
 * queries that do find something ("laptop" for "laptop bag", same filters), and each active refinement whose
 * removal finds something, with the number of results. Alternatives that would find nothing are not offered.
 */
export function NoResults() {
  const { indexUiState, setIndexUiState } = useInstantSearch();
  const format = useFormat();
  const state = indexUiState as StorefrontIndexUiState;
  const stateKey = JSON.stringify(state);
  const refinements = useMemo(() => listRefinements(JSON.parse(stateKey) as StorefrontIndexUiState, format.price), [stateKey, format]);
  const shorter = useMemo(() => relaxedQueries(state.query ?? ''), [state.query]);
  const alternatives = useAlternatives(stateKey, refinements.length, shorter);
  const category = state.hierarchicalMenu?.[categoryAttributes[0]];
  const where = category?.length ? ` in ${category.join(' › ')}` : '';

  const ready = alternatives !== null && alternatives !== 'failed' ? alternatives : undefined;
  const queries = ready ? shorter.map((query, index) => ({ query, count: ready.relaxed[index] })).filter(({ count }) => count > 0) : [];
  const removable = ready ? refinements.map((refinement, index) => ({ refinement, count: ready.withoutRefinement[index] })).filter(({ count }) => count > 0) : [];

  return (
    <section className="vt-no-results" aria-labelledby="vt-no-results-title">
      <h2 id="vt-no-results-title">{state.query ? `No results for “${state.query}”${where}` : `No results${where}`}</h2>
      {alternatives === null && (shorter.length > 0 || refinements.length > 0) && <p role="status">Looking for something close…</p>}
      {queries.length > 0 && (
        <>
          <p>Try a shorter search:</p>
          <ul className="vt-no-results-list">
            {queries.map(({ query, count }) => (
              <li key={query}>
                <button type="button" className="vt-relaxed-query" onClick={() => setIndexUiState((previous) => ({ ...previous, query, page: undefined }))}>
                  Search for “{query}”{where}
                </button>{' '}
                <span className="vt-no-results-count">{plural(count, format.number)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {removable.length > 0 && (
        <>
          <p>Or remove a filter:</p>
          <ul className="vt-no-results-list">
            {removable.map(({ refinement, count }) => (
              <li key={refinement.key}>
                <button type="button" onClick={() => setIndexUiState((previous) => refinement.remove(previous as StorefrontIndexUiState))}>
                  Remove “{refinement.label}”
                </button>{' '}
                <span className="vt-no-results-count">{plural(count, format.number)} without it</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {refinements.length > 0 && <ClearRefinements />}
      {alternatives !== null && queries.length === 0 && removable.length === 0 && <p>Check the spelling or try fewer or more general words.</p>}
      {alternatives === null && shorter.length === 0 && refinements.length === 0 && <p>Check the spelling or try fewer or more general words.</p>}
    </section>
  );
}
