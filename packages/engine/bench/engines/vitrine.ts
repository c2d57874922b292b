/** Vitrine's engine, configured with the demo settings, queried as the server and InstantSearch would. */
import type { Product, SearchParams } from '@vitrine/protocol';
import { demoSettings } from '@vitrine/demo';
import { SearchIndex } from '../../src/index.ts';
import type { SearchOptions } from '../../src/api.ts';
import { FACETS, inBatches, type Workload } from '../workload.ts';
import { learningFor, type Learning } from './learning.ts';
import type { BenchEngine } from './types.ts';

const quote = (value: string): string => JSON.stringify(value);

/**
 * `learning`: every search also carries what the server hands the engine when a shop learns from its events
 * (`vitrine+learning` in `npm run bench -- --engines vitrine,vitrine+learning`): re-ranking boosts for its query
 * and a shopper's affinities (`engines/learning.ts`), so the two rows of a run show what learning costs.
 */
export function vitrineEngine(options: { learning?: boolean } = {}): BenchEngine {
  const settings = options.learning ? { ...demoSettings, enableReRanking: true, enablePersonalization: true } : demoSettings;
  const built = (products: Iterable<Product>): SearchIndex => {
    const made = new SearchIndex(settings);
    // No result cache: the peers have none, and the workload repeats queries (a category page, a query).
    made.setResultCacheBytes(0);
    for (const batch of inBatches(products, 1000)) made.saveObjects(batch);
    // Settle the structures built lazily on the first query after writes (as the server's first query would).
    made.search({ query: '', facets: FACETS });
    return made;
  };
  let index = new SearchIndex(settings);
  let twin: SearchIndex | undefined;
  let learning: Learning | undefined;
  const extra = (query: string): SearchOptions | undefined => learning?.next(query);
  // As the storefront searches when the shop learns: boosts and affinities on the same search.
  const together: SearchParams = options.learning ? { allowReRankingOnPersonalization: true } : {};
  const queries = (learned: boolean): Pick<BenchEngine, 'a' | 'b' | 'c' | 'd'> => {
    // Learning's parameters added to each search's own object, not spread into a new one: V8's optimised code
    // gives every object built as `{ ...a, b }` a map of its own, and the engine's parameter reads then miss
    // its caches (~15 µs a search here); objects parsed from a request, as the server's are, share one.
    const withParams = (search: SearchParams): SearchParams => (learned ? Object.assign(search, together) : search);
    const extraFor = (query: string): SearchOptions | undefined => (learned ? extra(query) : undefined);
    // Without learning, the twin index when there is one (`buildTwin`).
    const target = (): SearchIndex => (learned ? index : (twin ?? index));
    return {
      a(q) {
        return target().search(withParams({ query: q.query, hitsPerPage: 20 }), undefined, extraFor(q.query)).nbHits;
      },
      b(q) {
        return target().search(
          withParams({
            query: q.query,
            hitsPerPage: 20,
            filters: `(brand:${quote(q.brands[0])} OR brand:${quote(q.brands[1])}) AND price:${q.priceMin} TO ${q.priceMax}`,
            facets: FACETS,
          }),
          undefined,
          extraFor(q.query),
        ).nbHits;
      },
      c(q) {
        return target().search(withParams({ query: '', hitsPerPage: 20, facetFilters: [[`hierarchicalCategories.lvl1:${q.category}`]], facets: FACETS }), undefined, extraFor('')).nbHits;
      },
      d(q) {
        const brand = q.brands.map((b) => `brand:${b}`);
        const color = [`color:${q.color}`];
        const helper: SearchParams = { attributesToRetrieve: [], attributesToHighlight: [], attributesToSnippet: [], hitsPerPage: 0, page: 0, analytics: false, clickAnalytics: false };
        // The server hands learning to every query of a multi-query; the helpers' zero hits make it cheap there.
        const learnedInput = extraFor(q.query);
        const on = target();
        const main = on.search(withParams({ query: q.query, hitsPerPage: 20, facetFilters: [brand, color], facets: FACETS }), undefined, learnedInput);
        on.search({ ...helper, query: q.query, facetFilters: [color], facets: ['brand'] }, undefined, learnedInput);
        on.search({ ...helper, query: q.query, facetFilters: [brand], facets: ['color'] }, undefined, learnedInput);
        return main.nbHits;
      },
    };
  };
  return {
    name: options.learning ? 'vitrine+learning' : 'vitrine',
    build(products: Iterable<Product>) {
      index = built(products);
    },
    ...(options.learning ? { buildTwin: (products: Iterable<Product>) => void (twin = built(products)) } : {}),
    prepare(workloads: Workload[]) {
      if (options.learning) learning = learningFor(index, workloads);
    },
    ...queries(options.learning === true),
    ...(options.learning ? { withoutLearning: queries(false) } : {}),
  };
}
