/**
 * With InstantSearch itself (instantsearch.js, the library react-instantsearch drives) and the storefront's
 * search client (algoliasearch's lite client), whose requester (the part that does HTTP) records each request
 * and answers when the test says: a search the box armed sends its request before the widgets render its
 * loading status, which still comes 100 ms later (the stalled status at 200 ms as before) unless the answer's
 * render came first; a search nobody armed (a checkbox, a link) renders its loading status at once, as
 * InstantSearch does; uninstalling puts InstantSearch's own scheduling back (the loading render before the
 * request again: the test of the test).
 */
import { createMemoryCache } from '@algolia/client-common';
import { liteClient } from 'algoliasearch/lite';
import instantsearch from 'instantsearch.js/es/index.js';
import connectSearchBox from 'instantsearch.js/es/connectors/search-box/connectSearchBox.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOADING_RENDER_DELAY_MS, renderLoadingAfterRequest } from './loading-render.ts';

function harness() {
  const events: string[] = [];
  const answers: Array<() => void> = [];
  const requester = {
    send(request: { data?: string | Uint8Array }) {
      const { requests } = JSON.parse(String(request.data ?? '{}')) as { requests: Array<{ query?: string }> };
      const queries = requests.map((r) => r.query ?? '');
      events.push(`request ${queries[0]}`);
      return new Promise<{ status: number; content: string; isTimedOut: boolean }>((resolve) => {
        const results = queries.map((query) => ({ hits: [], nbHits: 0, page: 0, nbPages: 0, hitsPerPage: 20, processingTimeMS: 1, query, params: '', exhaustiveNbHits: true }));
        answers.push(() => resolve({ status: 200, content: JSON.stringify({ results }), isTimedOut: false }));
      });
    },
  };
  const searchClient = liteClient('app', 'key', { hosts: [{ url: 'shop.test', protocol: 'http', accept: 'readWrite' }], requester, hostsCache: createMemoryCache({ serializable: false }) });
  const search = instantsearch({ indexName: 'products', searchClient, stalledSearchDelay: 200 });
  let refine: (query: string) => void = () => {};
  search.addWidgets([
    connectSearchBox((state) => {
      refine = state.refine;
      events.push(`render ${search.status}`);
    })({}),
  ]);
  search.start();
  /** Answers the first search, then forgets what happened so far. */
  const started = async () => {
    await vi.advanceTimersByTimeAsync(0);
    answers.shift()!();
    await vi.advanceTimersByTimeAsync(0);
    events.length = 0;
  };
  return { search, events, answers, refine: (query: string) => refine(query), started };
}

describe('the loading render after the request', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it(`sends an armed search's request first, and renders its loading status ${LOADING_RENDER_DELAY_MS} ms later if no answer came`, async () => {
    const { search, events, answers, refine, started } = harness();
    await started();
    const deferral = renderLoadingAfterRequest(search);
    deferral.arm();
    refine('kettle');
    await vi.advanceTimersByTimeAsync(LOADING_RENDER_DELAY_MS - 1);
    expect(events).toEqual(['request kettle']);
    await vi.advanceTimersByTimeAsync(1);
    expect(events).toEqual(['request kettle', 'render loading']);
    // InstantSearch's stalled status, on its own timer (200 ms), is rendered as before.
    await vi.advanceTimersByTimeAsync(200 - LOADING_RENDER_DELAY_MS);
    expect(events).toEqual(['request kettle', 'render loading', 'render stalled']);
    answers.shift()!();
    await vi.advanceTimersByTimeAsync(0);
    expect(events.at(-1)).toBe('render idle');
    // Put back: InstantSearch's own order, the loading render before the request (what the deferral changes).
    deferral.uninstall();
    events.length = 0;
    deferral.arm();
    refine('kettle blue');
    await vi.advanceTimersByTimeAsync(0);
    expect(events).toEqual(['render loading', 'request kettle blue']);
    search.dispose();
  });

  it("drops the loading render when the answer's render comes first", async () => {
    const { search, events, answers, refine, started } = harness();
    await started();
    renderLoadingAfterRequest(search).arm();
    refine('sofa');
    await vi.advanceTimersByTimeAsync(10);
    answers.shift()!();
    await vi.advanceTimersByTimeAsync(LOADING_RENDER_DELAY_MS);
    expect(events).toEqual(['request sofa', 'render idle']);
    search.dispose();
  });

  it('leaves searches nobody armed to InstantSearch (their loading render before the request), and disarms after the task', async () => {
    const { search, events, answers, refine, started } = harness();
    await started();
    const deferral = renderLoadingAfterRequest(search);
    refine('lamp');
    await vi.advanceTimersByTimeAsync(0);
    expect(events).toEqual(['render loading', 'request lamp']);
    answers.shift()!();
    await vi.advanceTimersByTimeAsync(0);
    // Armed, but the search starts in a later task: not this key's search.
    events.length = 0;
    deferral.arm();
    await vi.advanceTimersByTimeAsync(0);
    refine('lamp desk');
    await vi.advanceTimersByTimeAsync(0);
    expect(events).toEqual(['render loading', 'request lamp desk']);
    search.dispose();
  });
});
