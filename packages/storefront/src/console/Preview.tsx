/**
 * A live search of the index while the operator edits synonyms or rules: type a query, see the results as the
 * shop would. `version` re-runs it after a save; `onResult` makes results clickable (pin/hide in Rules).
 */
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import type { SearchResponse } from 'algoliasearch';
import { describeError } from './access.ts';
import { useConsole } from './context.ts';
import { recordLabel } from './record-json.ts';

type Hit = Record<string, unknown> & { objectID: string };

export function Preview({ version, actions, footer, onQueryChange }: { version: number; actions?: (hit: Hit) => ReactNode; footer?: (response: SearchResponse<Hit>) => ReactNode; onQueryChange?: (query: string) => void }) {
  const { client, indexName } = useConsole();
  const [query, setQuery] = useState('');
  const [response, setResponse] = useState<SearchResponse<Hit> | undefined>();
  const [error, setError] = useState('');

  useEffect(() => {
    let current = true;
    client
      .searchSingleIndex<Hit>({ indexName, searchParams: { query, hitsPerPage: 10, attributesToHighlight: [], analytics: false, getRankingInfo: true } })
      .then(
        (result) => {
          if (!current) return;
          setResponse(result);
          setError('');
        },
        (failure: unknown) => current && setError(describeError(failure, 'search this index', 'search')),
      );
    return () => {
      current = false;
    };
  }, [client, indexName, query, version]);

  return (
    <div className="vt-console-panel" aria-label="Preview" role="region">
      <h3>Preview</h3>
      <input type="search" aria-label="Preview query" placeholder="Type a query" value={query} onChange={(event) => {
          setQuery(event.target.value);
          onQueryChange?.(event.target.value);
        }} />
      {error && <p role="alert">{error}</p>}
      {response && (
        <>
          <p className="vt-admin-hint" data-testid="preview-count">
            {(response.nbHits ?? 0).toLocaleString('en-US')} results
          </p>
          {footer?.(response)}
          <ol className="vt-console-preview">
            {response.hits.map((hit) => (
              <li key={hit.objectID}>
                <span className="vt-console-preview-name">{recordLabel(hit) || hit.objectID}</span> <small>{hit.objectID}</small> {actions?.(hit)}
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
