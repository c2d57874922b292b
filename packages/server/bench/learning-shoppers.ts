/**
 * The simulated shoppers of `npm run bench:learning` (`learning.ts`): hidden preferences the server never sees,
 * a position-biased click model, and the measures (NDCG@10 against the hidden truth, the two-proportion test).
 *
 * - **Truth**: per query, `TRUTH_PER_QUERY` products among its first `POOL` results (learning off) truly
 *   satisfy it, chosen at random whatever their place.
 * - **Shoppers**: each has a favourite brand and colour (among those of the queries' pools).
 * - **Relevance** of a product to a shopper's query: 2 if it satisfies the query, + 1 for the favourite brand,
 *   + 0.5 for the favourite colour. NDCG@10 uses gains 2^rel − 1, the ideal order over the pool.
 * - **Clicks** (a position-based model): a shopper examines position p of the page with probability
 *   `0.9 × p^−0.8` and clicks an examined product with its attractiveness (0.55 if it satisfies the query, 0.25 for
 *   the brand, 0.15 for the colour, combined as independent chances over a base 0.04); after a click, buys with
 *   0.35 (satisfies), 0.10 (brand or colour) or 0.03. At most 3 clicks a search.
 * - **Random shoppers** (the control): click one position of the page chosen uniformly, half of the time, and
 *   buy after a click with 0.1, whatever the products.
 */

export const POOL = 40;
export const TRUTH_PER_QUERY = 3;
const MAX_CLICKS = 3;

/** Mulberry32: a small seeded generator, so a run can be repeated. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Item {
  objectID: string;
  brand: string;
  color: string;
}

export interface Shopper {
  token: string;
  brand: string;
  color: string;
}

export interface World {
  queries: string[];
  /** Per query: the products that satisfy it, and its pool (the first results, learning off). */
  truth: Map<string, Set<string>>;
  pools: Map<string, Item[]>;
}

export function relevance(world: World, shopper: Shopper, query: string, item: Item): number {
  return (world.truth.get(query)!.has(item.objectID) ? 2 : 0) + (item.brand === shopper.brand ? 1 : 0) + (item.color === shopper.color ? 0.5 : 0);
}

/** NDCG@10 of `ranked` for this shopper's query; the ideal order is over the pool and what was ranked. */
export function ndcgAt10(world: World, shopper: Shopper, query: string, ranked: Item[]): number {
  const gain = (item: Item) => 2 ** relevance(world, shopper, query, item) - 1;
  const dcg = (items: Item[]) => items.slice(0, 10).reduce((sum, item, i) => sum + gain(item) / Math.log2(i + 2), 0);
  const candidates = new Map([...world.pools.get(query)!, ...ranked].map((item) => [item.objectID, item]));
  const ideal = dcg([...candidates.values()].sort((a, b) => gain(b) - gain(a)));
  return ideal === 0 ? 1 : dcg(ranked) / ideal;
}

export interface Interaction {
  clicks: Array<{ item: Item; position: number }>;
  purchases: Item[];
}

/** What a shopper does with a page of results (`random`: the control's shoppers, blind to the products). */
export function interact(world: World, shopper: Shopper, query: string, page: Item[], random: () => number, mode: 'preferences' | 'random'): Interaction {
  const result: Interaction = { clicks: [], purchases: [] };
  if (mode === 'random') {
    if (page.length === 0 || random() >= 0.5) return result;
    const position = 1 + Math.floor(random() * page.length);
    result.clicks.push({ item: page[position - 1], position });
    if (random() < 0.1) result.purchases.push(page[position - 1]);
    return result;
  }
  for (let i = 0; i < page.length && result.clicks.length < MAX_CLICKS; i++) {
    const item = page[i];
    const satisfies = world.truth.get(query)!.has(item.objectID);
    const brand = item.brand === shopper.brand;
    const color = item.color === shopper.color;
    const attractive = 1 - (1 - (satisfies ? 0.55 : 0)) * (1 - (brand ? 0.25 : 0)) * (1 - (color ? 0.15 : 0)) * (1 - 0.04);
    if (random() >= 0.9 * (i + 1) ** -0.8 * attractive) continue;
    result.clicks.push({ item, position: i + 1 });
    if (random() < (satisfies ? 0.35 : brand || color ? 0.1 : 0.03)) result.purchases.push(item);
  }
  return result;
}

/** The pooled two-proportion z-test (as the A/B tests compute their significance), two-sided. */
export function twoProportions(a: { successes: number; trials: number }, b: { successes: number; trials: number }): { z: number; pValue: number } {
  const pooled = (a.successes + b.successes) / (a.trials + b.trials);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / a.trials + 1 / b.trials));
  const z = se === 0 ? 0 : (b.successes / b.trials - a.successes / a.trials) / se;
  return { z, pValue: Math.min(1, 2 * (1 - normalCdf(Math.abs(z)))) };
}

/** Abramowitz and Stegun 7.1.26 (error below 1.5e-7). */
function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf = 1 - t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-x * x);
  return 0.5 * (1 + (z < 0 ? -erf : erf));
}

/** The n-th element of a list, chosen by the generator. */
export function pick<T>(list: readonly T[], random: () => number): T {
  return list[Math.floor(random() * list.length)];
}
