/**
 * Recovering from failed searches. After a failure InstantSearch falls back to the state of the last results
 * it had; a middleware remembers the state the shopper last asked for, so a retry searches for that
 * ("lamp desk"), not for the older state ("lamp").
 */
import { useEffect, useMemo } from 'react';
import { useInstantSearch } from 'react-instantsearch';
import type { Middleware, UiState } from 'instantsearch.js';

/** Delay before the n-th automatic retry (0-based): 1 s, 2 s, 4 s … up to 30 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, attempt));
}

interface WantedState {
  current(): UiState | undefined;
}

/** Registers the middleware for the lifetime of the calling component and returns what it remembers. */
export function useWantedUiState(): WantedState {
  const { addMiddlewares } = useInstantSearch();
  const wanted = useMemo(() => {
    let last: UiState | undefined;
    const middleware: Middleware = ({ instantSearchInstance }) => ({
      $$type: 'vitrine.wantedUiState',
      onStateChange({ uiState }) {
        // A change while the status is "error" is InstantSearch falling back, not the shopper asking.
        if (instantSearchInstance.status !== 'error') last = uiState;
      },
      subscribe() {},
      started() {},
      unsubscribe() {},
    });
    return { middleware, current: () => last };
  }, []);
  useEffect(() => addMiddlewares(wanted.middleware), [addMiddlewares, wanted]);
  return wanted;
}
