/**
 * Micro-benchmark: highlighting + snippeting one page (20 hits) on the demo catalogue, the optimised
 * `highlight/` against the frozen pre-optimisation copy in `highlight/reference/`.
 *
 *   node --import tsx packages/engine/bench/highlight.ts [--size 100000] [--rounds 15]
 *
 * Each query is run through the real search once (not timed) to get its top 20 records and the query words as
 * the search stage builds them (prefix on the last word, typo budgets, plural alternatives). Timing then does
 * what `buildHit` does for each hit: `highlightRecord` over the searchable attributes and `snippetRecord` on
 * `description:20`. Each timed page gets a fresh `HighlightQuery` object, as every search does, so nothing
 * memoised per query carries over from one page to the next. Rounds alternate the two implementations so
 * drift (other work on the machine, GC) hits both alike; the figures reported are the median round and, less
 * sensitive to other work on a shared machine, the fastest.
 */
import { demoSettings, generateProducts } from '@vitrine/demo';
import type { IndexRecord, Product, SearchParams } from '@vitrine/protocol';
import { SearchIndex } from '../src/index.ts';
import * as optimised from '../src/highlight/index.ts';
import * as reference from '../src/highlight/reference/index.ts';
import type { HighlightQuery } from '../src/highlight/index.ts';
import { prepareSearch, type SearchEnvironment } from '../src/search/prepare.ts';
import { queryBitsets } from '../src/structures/bitset-pool.ts';
import { highlightQuery } from '../src/search/run.ts';
import { buildWorkload, numberOption } from './workload.ts';

type Impl = Pick<typeof optimised, 'highlightRecord' | 'snippetRecord'>;

const size = numberOption('size', 100_000);
const rounds = numberOption('rounds', 15);

// Through JSON, as the server receives records: flat strings, as in production (generated ones are built by
// concatenation, which changes how strings hash and compare).
const products = JSON.parse(JSON.stringify([...generateProducts(size, 1)])) as Product[];
const index = new SearchIndex(demoSettings);
index.setResultCacheBytes(0); // measure the search, not the result cache
for (let i = 0; i < products.length; i += 1000) index.saveObjects(products.slice(i, i + 1000));
const env = (index as unknown as { environment(): SearchEnvironment }).environment();
const attributes = env.store.text.slots.map((slot) => slot.attribute);
const snippets = [{ attribute: 'description', words: 20 }];

/** The query words exactly as `search/run.ts` hands them to highlighting. */
function highlightQueryFor(query: string): HighlightQuery {
  try {
    return highlightQuery(prepareSearch(env, { query }, undefined, undefined));
  } finally {
    queryBitsets.releaseAll();
  }
}

interface Page {
  text: string;
  params: SearchParams;
  query: HighlightQuery;
  records: IndexRecord[];
}

const NO_HIGHLIGHT = { hitsPerPage: 20, attributesToRetrieve: ['objectID'], attributesToHighlight: [], attributesToSnippet: [] };

function page(query: string, params: SearchParams = {}): Page {
  const hits = index.search({ ...params, ...NO_HIGHLIGHT, query }).hits;
  return { text: query, params, query: highlightQueryFor(query), records: hits.map((hit) => index.getObject(hit.objectID)!) };
}

const typed = buildWorkload(products, 40).a.map((q) => q.query);
const groups: Record<string, Page[]> = {
  // Category landing pages: no query words, one category refined.
  'empty query': [7, 70, 700, 7000].map((i) => page('', { facetFilters: [[`hierarchicalCategories.lvl1:${products[i].hierarchicalCategories.lvl1}`]] })),
  'as-you-type (1-3 words)': typed.map((query) => page(query)),
  'whole words + typos': ['laptop', 'red shoes', 'wireless headphones', 'buildng set', 'exercise bkie', 'stainless steel', 'grey cotton', 'vertek'].map((query) => page(query)),
};

function runPage(impl: Impl, p: Page, query: HighlightQuery): unknown[] {
  const out: unknown[] = [];
  for (const record of p.records) {
    // As in buildHit: fresh option objects per hit.
    const tags = { preTag: '<em>', postTag: '</em>', separatorsToIndex: '' };
    out.push(impl.highlightRecord(record, attributes, query, tags), impl.snippetRecord(record, snippets, query, { ...tags, ellipsis: '…' }));
  }
  return out;
}

// Sanity: both implementations agree on every page benchmarked.
for (const pages of Object.values(groups)) {
  for (const p of pages) {
    if (JSON.stringify(runPage(optimised, p, structuredClone(p.query))) !== JSON.stringify(runPage(reference, p, structuredClone(p.query)))) {
      throw new Error(`implementations differ on ${JSON.stringify(p.query.words.map((w) => w.original))}`);
    }
  }
}

/**
 * Microseconds per hit for `repeat` passes over the group's pages. Each page gets a new query object, made
 * right before it as a search makes it, so whatever a page memoises on its query is young garbage once the page
 * is done; the words array is shared, which changes nothing (memos are per query object). With `searches`,
 * each page is preceded by its search (not timed, without highlighting), so the caches are as cold as in a
 * real search rather than warm from the previous page.
 */
function time(impl: Impl, pages: Page[], repeat: number, searches = false): number {
  let hits = 0;
  let sink = 0;
  let elapsed = 0;
  for (let r = 0; r < repeat; r++) {
    for (const p of pages) {
      if (searches) sink += index.search({ ...p.params, ...NO_HIGHLIGHT, query: p.text }).nbHits;
      const started = performance.now();
      sink += runPage(impl, p, { words: p.query.words }).length;
      elapsed += performance.now() - started;
      hits += p.records.length;
    }
  }
  if (sink < 0) console.log(sink);
  return (elapsed * 1000) / hits;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

console.log(`catalogue ${size}, ${rounds} rounds; µs per hit (highlightRecord + snippetRecord): median round (fastest round)`);
console.log(['group', 'pages', 'reference', 'optimised', 'speed-up'].join('\t'));
const figure = (median: number, fastest: number, digits = 2) => `${median.toFixed(digits)} (${fastest.toFixed(digits)})`;
const runs: Array<[string, Page[], boolean]> = [
  ...Object.entries(groups).map(([name, pages]): [string, Page[], boolean] => [name, pages, false]),
  ['as-you-type, after its search', groups['as-you-type (1-3 words)'], true],
];
for (const [name, pages, searches] of runs) {
  const repeat = Math.max(1, Math.round((searches ? 80 : 400) / pages.length));
  time(reference, pages, repeat, searches);
  time(optimised, pages, repeat, searches);
  const before: number[] = [];
  const after: number[] = [];
  for (let r = 0; r < rounds; r++) {
    before.push(time(reference, pages, repeat, searches));
    after.push(time(optimised, pages, repeat, searches));
  }
  const b = median(before);
  const a = median(after);
  const fastestB = Math.min(...before);
  const fastestA = Math.min(...after);
  console.log([name, pages.length, figure(b, fastestB), figure(a, fastestA), `${figure(b / a, fastestB / fastestA, 1)}×`].join('\t'));
}
