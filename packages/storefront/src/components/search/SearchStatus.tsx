import { useEffect } from 'react';
import { useInstantSearch } from 'react-instantsearch';

/**
 * The search status beyond the search box's own spinner: a visible "loading" note once a search is stalled
 * (200 ms, see `stalledSearchDelay`), and on failure an alert with a Retry that runs the search again.
 *
 * Each new result set (hits or none) also leaves a `vitrine:results` performance mark once rendered, which the
 * browser tests read to measure keystroke-to-results time.
 */
export function SearchStatus() {
  const { status, error, refresh, results } = useInstantSearch({ catchError: true });
  useEffect(() => {
    if (!results.__isArtificial) performance.mark('vitrine:results', { detail: { query: results.query, nbHits: results.nbHits } });
  }, [results]);
  if (status === 'error') {
    return (
      <div className="vt-error" role="alert">
        <p>
          Search is unavailable right now{error?.message ? `: ${error.message}` : '.'}
        </p>
        <button type="button" onClick={() => refresh()}>
          Retry
        </button>
      </div>
    );
  }
  return (
    <p className="vt-stalled" data-status={status} hidden={status !== 'stalled'}>
      Loading results…
    </p>
  );
}
