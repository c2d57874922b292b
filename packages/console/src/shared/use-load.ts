/**
 * Reading something for a screen: the answer of the latest request only (an earlier one that arrives late is
 * dropped), read again when `deps` change or `reload()` is called.
 */
import { useCallback, useEffect, useState } from 'react';
import type { DependencyList } from 'react';

/** A failed read keeps the last value read (a screen goes on showing it beside the error). */
export type Loaded<T> = { state: 'loading' } | { state: 'ready'; value: T } | { state: 'error'; error: unknown; value?: T };

/** The last value read, if any. */
export function lastValue<T>(loaded: Loaded<T>): T | undefined {
  return loaded.state === 'loading' ? undefined : loaded.value;
}

export function useLoad<T>(load: () => Promise<T>, deps: DependencyList): [Loaded<T>, () => void] {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let current = true;
    load().then(
      (value) => current && setLoaded({ state: 'ready', value }),
      (error: unknown) => current && setLoaded((previous) => ({ state: 'error', error, value: lastValue(previous) })),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps stand for what `load` reads
  }, [...deps, version]);
  const reload = useCallback(() => setVersion((n) => n + 1), []);
  return [loaded, reload];
}
