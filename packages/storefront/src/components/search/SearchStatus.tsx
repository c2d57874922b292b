import { useEffect, useRef, useState } from 'react';
import { useInstantSearch } from 'react-instantsearch';
import { retryDelayMs, useWantedUiState } from './search-recovery.ts';

/**
 * The search status beyond the search box's own spinner: a visible "loading" note once a search is stalled
 * (200 ms, see `stalledSearchDelay`), and when a search fails, the shop's own message (never the client's
 * error text), automatic retries with growing pauses (and at once when the browser comes back online), and a
 * "Try again now" button. Every retry searches for what the shopper last asked for.
 *
 * Each new result set (hits or none) also leaves a `vitrine:results` performance mark once rendered, which the
 * browser tests read to measure keystroke-to-results time.
 */
export function SearchStatus() {
  const { status, error, refresh, results, uiState, setUiState } = useInstantSearch({ catchError: true });
  const wanted = useWantedUiState();
  // Automatic retries since the last success: typing or "Try again now" during an outage doesn't lengthen the pause.
  const automaticRetries = useRef(0);
  const [retryAt, setRetryAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (!results.__isArtificial) performance.mark('vitrine:results', { detail: { query: results.query, nbHits: results.nbHits } });
  }, [results]);

  const retry = () => {
    setRetryAt(null);
    const target = wanted.current();
    if (target && JSON.stringify(target) !== JSON.stringify(uiState)) setUiState(target);
    else refresh();
  };
  const retryRef = useRef(retry);
  retryRef.current = retry;

  useEffect(() => {
    if (status !== 'error') {
      if (status === 'idle') automaticRetries.current = 0;
      setRetryAt(null);
      return;
    }
    // One schedule per failure: each failed retry brings a new error, and the next pause is twice as long.
    const delay = retryDelayMs(automaticRetries.current);
    setRetryAt(Date.now() + delay);
    const timer = setTimeout(() => {
      automaticRetries.current += 1;
      retryRef.current();
    }, delay);
    const online = () => retryRef.current();
    window.addEventListener('online', online);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('online', online);
    };
  }, [status, error]);

  useEffect(() => {
    if (retryAt === null) return;
    const ticker = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(ticker);
  }, [retryAt]);

  if (status === 'error') {
    const seconds = retryAt === null ? 0 : Math.max(1, Math.ceil((retryAt - now) / 1000));
    return (
      <div className="vt-error vt-search-error">
        <div role="alert">
          <p className="vt-error-title">We can’t reach our product search right now.</p>
          <p>Your search is kept; the results below may be out of date.</p>
        </div>
        {/* Outside the alert: a countdown read out every second would drown the message. */}
        <p className="vt-retry-note">{retryAt === null ? 'Trying again…' : `Trying again in ${seconds} s.`}</p>
        <button type="button" onClick={retry}>
          Try again now
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
