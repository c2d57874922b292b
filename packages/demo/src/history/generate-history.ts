/**
 * A deterministic, plausible past for the demo shop, so a fresh start shows non-empty analytics, trends and
 * recommendations: `days` days of visits ending at `now`, each a user session of searches (some filtered, some
 * with no results), clicks at realistic positions (the first results far more often), product views,
 * add-to-carts and purchases. Structure the models can find:
 * - every product has two companions (same department, another category); a purchase often includes them
 *   (bought-together) and a product view is often followed by a companion view (related products);
 * - a handful of "rising" products gather most of their activity in the last week (trending);
 * - traffic grows slowly over the period, with a weekly rhythm.
 * The same products, seed and `now` always give the same history.
 */
import type { InsightsEvent, InsightsHistory, Product, SearchLogEntry } from '@vitrine/protocol';
import { createRandom } from '../random.ts';
import type { Random } from '../random.ts';
import { CatalogueSearch } from './catalogue-search.ts';

export interface HistoryOptions {
  /** Default 1. */
  seed?: number;
  /** End of the history, ms since the epoch. Default: now. */
  now?: number;
  /** Default 30. */
  days?: number;
  /** Visits on an average day. Default 250. */
  sessionsPerDay?: number;
  /** Default 'products'. */
  indexName?: string;
  /** Products considered (the first ones of the catalogue). Default 20,000. */
  maxProducts?: number;
}

const DAY_MS = 86_400_000;
const RESULTS_KEPT = 20;
const NO_RESULT_QUERIES = ['gift card', 'warranty extension', 'store opening hours', 'refurbished laptop', 'sofa bed xxl', 'wireles hedphones'];
const DEVICES = ['desktop', 'mobile'];

function hex32(random: Random): string {
  let out = '';
  for (let i = 0; i < 4; i++) out += Math.floor(random.next() * 0x1_0000_0000).toString(16).padStart(8, '0');
  return out;
}

/** Zipf-like pick: index i with weight 1 / (i + 1)^s. */
function zipf(random: Random, n: number, s = 1.1): number {
  const u = random.next();
  // Inverse of the continuous approximation; good enough for a plausible long tail.
  const x = Math.floor(Math.pow(n + 1, Math.pow(u, 1 / (1 - 1 / (s + 1))) ) - 1);
  return Math.min(n - 1, Math.max(0, x));
}

function leafNoun(product: Product): string {
  return product.hierarchicalCategories.lvl2.split('>').pop()!.trim().toLowerCase();
}

/** The query pool, most frequent first: category nouns, brands, brand + noun, colour + noun. */
function queryPool(products: readonly Product[], random: Random): string[] {
  const byPopularity = [...products].sort((a, b) => b.popularity - a.popularity);
  const seen = new Set<string>();
  const out: string[] = [];
  const add = (q: string) => {
    if (!seen.has(q)) {
      seen.add(q);
      out.push(q);
    }
  };
  for (const product of byPopularity.slice(0, 400)) {
    const noun = leafNoun(product);
    add(noun);
    if (random.next() < 0.5) add(product.brand.toLowerCase());
    if (random.next() < 0.4) add(`${product.brand.toLowerCase()} ${noun}`);
    if (random.next() < 0.3) add(`${product.color.toLowerCase()} ${noun}`);
  }
  return out;
}

export function generateHistory(catalogue: Iterable<Product>, options: HistoryOptions = {}): InsightsHistory {
  const random = createRandom(options.seed ?? 1);
  const now = options.now ?? Date.now();
  const days = options.days ?? 30;
  const perDay = options.sessionsPerDay ?? 250;
  const index = options.indexName ?? 'products';
  const products: Product[] = [];
  for (const product of catalogue) {
    products.push(product);
    if (products.length >= (options.maxProducts ?? 20_000)) break;
  }
  const history: InsightsHistory = { searches: [], events: [] };
  if (products.length === 0) return history;
  const finder = new CatalogueSearch(products);
  const queries = queryPool(products, random);

  // Companions: two products of the same department, other categories, popular ones more likely.
  const byDepartment = new Map<string, number[]>();
  products.forEach((p, i) => byDepartment.set(p.hierarchicalCategories.lvl0, [...(byDepartment.get(p.hierarchicalCategories.lvl0) ?? []), i]));
  for (const list of byDepartment.values()) list.sort((a, b) => products[b].popularity - products[a].popularity);
  const companions = products.map((p, i) => {
    const pool = byDepartment.get(p.hierarchicalCategories.lvl0)!.filter((j) => j !== i && products[j].hierarchicalCategories.lvl2 !== p.hierarchicalCategories.lvl2);
    const picked: number[] = [];
    for (let k = 0; k < 6 && picked.length < 2 && pool.length > 0; k++) {
      const j = pool[zipf(random, Math.min(pool.length, 60))];
      if (!picked.includes(j)) picked.push(j);
    }
    return picked;
  });
  const rising = Array.from({ length: Math.min(12, products.length) }, () => random.int(products.length));

  const users = Math.max(50, Math.round((days * perDay) / 3));
  const event = (e: Omit<InsightsEvent, 'index' | 'timestamp' | 'userToken'>, userToken: string, ts: number) =>
    history.events.push({ ...e, index, userToken, timestamp: Math.min(ts, now - 1) });
  const objectData = (ids: number[], queryID?: string) => ids.map((i, k) => ({ price: products[i].price, quantity: 1, ...(k === 0 && queryID ? { queryID } : {}) }));
  const price = (ids: number[]) => Math.round(ids.reduce((sum, i) => sum + products[i].price, 0) * 100) / 100;

  for (let d = 0; d < days; d++) {
    const dayStart = now - (days - d) * DAY_MS;
    const weekday = new Date(dayStart).getUTCDay();
    const volume = perDay * (0.85 + 0.3 * (d / days)) * (weekday === 0 || weekday === 6 ? 1.2 : 1);
    const sessions = Math.round(volume * (0.9 + 0.2 * random.next()));
    const recent = days - d <= 7;
    for (let s = 0; s < sessions; s++) {
      const userToken = `demo-user-${random.int(users)}`;
      const device = DEVICES[random.next() < 0.6 ? 1 : 0];
      let ts = dayStart + Math.floor(random.next() * (DAY_MS - 3_600_000));
      const searchCount = 1 + Math.floor(random.next() * random.next() * 3);
      for (let q = 0; q < searchCount; q++) {
        ts += 20_000 + random.int(90_000);
        let query: string;
        let target: number | undefined;
        if (recent && random.next() < 0.18) {
          target = rising[random.int(rising.length)];
          query = `${products[target].brand} ${leafNoun(products[target])}`.toLowerCase();
        } else if (random.next() < 0.04) {
          query = NO_RESULT_QUERIES[random.int(NO_RESULT_QUERIES.length)];
        } else {
          query = queries[zipf(random, queries.length)];
        }
        const filtered = random.next() < 0.2;
        let results = finder.search(query);
        let facetFilters: string[][] | undefined;
        if (filtered && results.length > 0) {
          const colour = products[results[random.int(results.length)]].color;
          facetFilters = [[`color:${colour}`]];
          results = results.filter((i) => products[i].color === colour);
        }
        const queryID = hex32(random);
        const top = results.slice(0, RESULTS_KEPT);
        const search: SearchLogEntry = {
          index, query, nbHits: results.length, queryID, userToken, objectIDs: top.map((i) => products[i].objectID), analyticsTags: [device], timestamp: ts,
          ...(facetFilters ? { facetFilters } : {}),
        };
        history.searches.push(search);
        if (top.length === 0 || random.next() > (target !== undefined ? 0.8 : 0.45)) continue;
        // Clicks favour the first results: position k with probability ~ 0.35 × 0.65^(k-1).
        let position = 1;
        if (target !== undefined && top.includes(target)) position = top.indexOf(target) + 1;
        else while (position < top.length && random.next() < 0.65) position++;
        const clicked = top[position - 1];
        ts += 5_000 + random.int(30_000);
        event({ eventType: 'click', eventName: 'Hit Clicked', queryID, objectIDs: [products[clicked].objectID], positions: [position] }, userToken, ts);
        event({ eventType: 'view', eventName: 'Product Viewed', objectIDs: [products[clicked].objectID] }, userToken, ts + 1_000);
        if (random.next() < 0.35 && companions[clicked].length > 0) {
          const companion = companions[clicked][random.int(companions[clicked].length)];
          event({ eventType: 'view', eventName: 'Product Viewed', objectIDs: [products[companion].objectID] }, userToken, ts + 40_000);
        }
        if (random.next() > (target !== undefined ? 0.5 : 0.25)) continue;
        ts += 60_000 + random.int(120_000);
        event({ eventType: 'conversion', eventSubtype: 'addToCart', eventName: 'Added To Cart', queryID, objectIDs: [products[clicked].objectID], objectData: objectData([clicked]), currency: 'USD', value: price([clicked]) }, userToken, ts);
        if (random.next() > 0.55) continue;
        const basket = [clicked, ...companions[clicked].filter(() => random.next() < 0.6)];
        ts += 120_000 + random.int(600_000);
        event({
          eventType: 'conversion', eventSubtype: 'purchase', eventName: 'Purchased', objectIDs: basket.map((i) => products[i].objectID),
          objectData: objectData(basket, queryID), currency: 'USD', value: price(basket),
        }, userToken, ts);
      }
      if (random.next() < 0.08) {
        const product = products[random.int(products.length)];
        event({ eventType: 'click', eventName: 'Filter Clicked', filters: [`brand:${product.brand}`] }, userToken, ts + 5_000);
      }
    }
  }
  return history;
}
