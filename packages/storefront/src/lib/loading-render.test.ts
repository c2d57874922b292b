/**
 * With InstantSearch itself (instantsearch.js, the library react-instantsearch drives) and the storefront's
 * search client (algoliasearch's lite client), whose requester (the part that does HTTP) records each request
 * and answers when the test says: a search's request is sent before the widgets render its loading status,
 * that render still comes (100 ms later: the stalled status at 200 ms as before) unless the answer's render came
 * first, and uninstalling puts InstantSearch's own scheduling back (the loading render before the request
 * again: the test of the test).
 */
import instantsearch from 'instantsearch.js/es/index.js';
import connectSearchBox from 'instantsearch.js/es/connectors/search-box/connectSearchBox.js';
import { createMemoryCache } from '@algolia/client-common';
import { liteClient } from 'algoliasearch/lite';
import { describe, expect, it, vi } from 'vitest';
import { LOADING_RENDER_DELAY_MS, renderLoadingAfterRequest } from './loading-render.ts';

type Answer = () => void;

function harness() {
  const events: string[] = [];
  const answers: Answer[] = [];
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
  const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
  return { search, events, answers, refine: (query: string) => refine(query), settle };
}

describe('the loading render after the request', () => {
  it('sends the request before the widgets render the loading status, which still comes', async () => {
    const { search, events, answers, refine, settle } = harness();
    await settle();
    answers.shift()!();
    await settle();
    let run: (() => void) | undefined;
    const uninstall = renderLoadingAfterRequest(search, (later) => {
      run = later;
      return () => {
        run = undefined;
      };
    });
    events.length = 0;
    refine('lamp');
    await settle();
    expect(events).toEqual(['request lamp']);
    run!();
    await settle();
    expect(events).toEqual(['request lamp', 'render loading']);
    answers.shift()!();
    await settle();
    expect(events).toEqual(['request lamp', 'render loading', 'render idle']);
    // Put back: InstantSearch's own order, the loading render before the request (what the deferral changes).
    uninstall();
    events.length = 0;
    refine('lamp desk');
    await settle();
    expect(events).toEqual(['render loading', 'request lamp desk']);
    search.dispose();
  });

  it(`renders the loading status ${LOADING_RENDER_DELAY_MS} ms after the search started, if no answer came`, async () => {
    vi.useFakeTimers();
    try {
      const { search, events, answers, refine } = harness();
      await vi.advanceTimersByTimeAsync(0);
      answers.shift()!();
      await vi.advanceTimersByTimeAsync(0);
      renderLoadingAfterRequest(search);
      events.length = 0;
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
      search.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it("drops the loading render when the answer's render is asked for first", async () => {
    const { search, events, answers, refine, settle } = harness();
    await settle();
    answers.shift()!();
    await settle();
    let run: (() => void) | undefined;
    renderLoadingAfterRequest(search, (later) => {
      run = later;
      return () => {
        run = undefined;
      };
    });
    events.length = 0;
    refine('sofa');
    await settle();
    expect(events).toEqual(['request sofa']);
    expect(run).toBeDefined();
    answers.shift()!();
    await settle();
    expect(events).toEqual(['request sofa', 'render idle']);
    expect(run).toBeUndefined();
    search.dispose();
  });
});
