/**
 * InstantSearch renders every widget when a search starts (its status turns to `loading`), in a microtask
 * queued before the search client's own: so that render ran before the search's request left, and each
 * keystroke's request waited for the whole page's widgets to compute their state again (the same results, a
 * status changed). `renderLoadingAfterRequest` moves that one render to a task of its own: the request leaves
 * first, the loading render runs while the server answers, and if the answer's render is asked for before it
 * ran, it is dropped (the answer's render shows the newer state). A failed search's render, which InstantSearch
 * asks for the same way, comes a task later too. Every other render (answers, the stalled status after
 * `stalledSearchDelay`) is InstantSearch's own, unchanged.
 */

/** What InstantSearch's `scheduleRender` is: a deferred call, with `wait` and `cancel`. */
export interface ScheduledRender {
  (resetStatus?: boolean): void;
  wait(): Promise<void>;
  cancel(): void;
}

export interface RendersOnSearch {
  scheduleRender: ScheduledRender;
}

/** Installs the deferral on an InstantSearch instance; returns what puts its own `scheduleRender` back. */
export function renderLoadingAfterRequest(instance: RendersOnSearch, later: (run: () => void) => () => void = afterDelay): () => void {
  const original = instance.scheduleRender;
  let pending: (() => void) | null = null;
  const drop = () => {
    pending?.();
    pending = null;
  };
  const scheduleRender = Object.assign(
    (resetStatus = true) => {
      // `false`: a search started (status loading); InstantSearch asks for `true` when an answer came.
      if (resetStatus === false) {
        if (pending === null)
          pending = later(() => {
            pending = null;
            original(false);
          });
        return;
      }
      drop();
      original(resetStatus);
    },
    {
      wait: () => original.wait(),
      cancel: () => {
        drop();
        original.cancel();
      },
    },
  );
  instance.scheduleRender = scheduleRender;
  return () => {
    drop();
    if (instance.scheduleRender === scheduleRender) instance.scheduleRender = original;
  };
}

/** How long the loading render waits for the answer's (which makes it moot). */
export const LOADING_RENDER_DELAY_MS = 100;

/** A task `LOADING_RENDER_DELAY_MS` later (after the microtasks where the search client sends the request). */
function afterDelay(run: () => void): () => void {
  const timer = setTimeout(run, LOADING_RENDER_DELAY_MS);
  return () => clearTimeout(timer);
}
