/**
 * A live search of the index while the operator edits synonyms or rules: type a query, see the results as the
 * shop would. `version` re-runs it after a save; `onResult` makes results clickable (pin/hide in Rules).
 */
import { useState } from 'react';
import type { ReactNode } from 'react';
import type { SearchResponse } from 'algoliasearch';
import { describeError } from '../api/access.ts';
import { useConsole } from '../api/context.ts';
import { recordLabel } from '../lib/record-json.ts';
import { lastValue, useLoad } from './use-load.ts';

type Hit = Record<string, unknown> & { objectID: string };

export function Preview({ version, actions, footer, onQueryChange }: { version: number; actions?: (hit: Hit) => ReactNode; footer?: (response: SearchResponse<Hit>) => ReactNode; onQueryChange?: (query: string) => void }) {
  const { client, indexName } = useConsole();
  const [query, setQuery] = useState('');
  const [load] = useLoad(
    () => client.searchSingleIndex<Hit>({ indexName, searchParams: { query, hitsPerPage: 10, attributesToHighlight: [], analytics: false, getRankingInfo: true } }),
    [client, indexName, query, version],
  );
  const response = lastValue(load);
  const error = load.state === 'error' ? describeError(load.error, 'search this index', 'search') : '';

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
