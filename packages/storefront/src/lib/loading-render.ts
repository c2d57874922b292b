/**
 * InstantSearch renders every widget when a search starts (its status turns to `loading`), in a microtask
 * queued before the search client's own: so that render ran before the search's request left, and each
 * keystroke's request waited for the whole page's widgets to compute their state again (the same results, a
 * status changed). `renderLoadingAfterRequest` lets the search box move that render, for the searches its keys
 * start (`armed`), `LOADING_RENDER_DELAY_MS` later: the request leaves first, and if the answer's render is
 * asked for before then, the loading render is dropped (the answer's render shows the newer state; a status
 * shown for less than a frame shows nothing). Other searches keep InstantSearch's own timing: a checkbox or a
 * link shows its new state at once, from that render. Failed searches, the stalled status after
 * `stalledSearchDelay` and answers render as InstantSearch renders them.
 */

/** What InstantSearch's `scheduleRender` is: a deferred call, with `wait` and `cancel`. */
export interface ScheduledRender {
  (resetStatus?: boolean): void;
  wait(): Promise<void>;
  cancel(): void;
}

export interface RendersOnSearch {
  scheduleRender: ScheduledRender;
  status: string;
}

export interface LoadingRenderDeferral {
  /** The search the current task starts (if any) renders its loading status later. */
  arm(): void;
  /** Puts InstantSearch's own `scheduleRender` back. */
  uninstall(): void;
}

/** How long the loading render waits for the answer's (which makes it moot). */
export const LOADING_RENDER_DELAY_MS = 100;

type Later = (run: () => void, ms: number) => () => void;

const timer: Later = (run, ms) => {
  const id = setTimeout(run, ms);
  return () => clearTimeout(id);
};

/** Installs the deferral on an InstantSearch instance. */
export function renderLoadingAfterRequest(instance: RendersOnSearch, later: Later = timer): LoadingRenderDeferral {
  const original = instance.scheduleRender;
  let armed = false;
  let disarm: (() => void) | null = null;
  let pending: (() => void) | null = null;
  const drop = () => {
    pending?.();
    pending = null;
  };
  const scheduleRender = Object.assign(
    (resetStatus = true) => {
      // A search started (`false`, status loading) by a key: its render waits for the answer's.
      if (resetStatus === false && armed && instance.status === 'loading') {
        armed = false;
        if (pending === null)
          pending = later(() => {
            pending = null;
            original(false);
          }, LOADING_RENDER_DELAY_MS);
        return;
      }
      // Any other render shows the state as it is now: a pending loading render would only repeat it.
      if (pending !== null && resetStatus !== false) drop();
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
  return {
    arm() {
      armed = true;
      // Only for the search this task starts (InstantSearch starts it a few microtasks later).
      disarm?.();
      disarm = later(() => {
        armed = false;
        disarm = null;
      }, 0);
    },
    uninstall() {
      drop();
      disarm?.();
      if (instance.scheduleRender === scheduleRender) instance.scheduleRender = original;
    },
  };
}
