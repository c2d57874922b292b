/**
 * Item pairs counted over "baskets" (a session, a user's purchases within a span), for the co-interest and
 * bought-together models, in bounded memory. Items are numbers, and a pair is one key (`low × 2^24 + high`) in
 * an open-addressing hash table of typed arrays: no object per pair, and next to nothing for the garbage
 * collector (nested maps, an entry object per pair, spent a third of a build collecting; the table counted a
 * build's pairs three times as fast).
 */
import { packIds } from './model-tables.ts';
import type { PartnerTable } from './model-tables.ts';

/** Partners kept per item. */
const PARTNERS_PER_ITEM = 50;
/** Items counted per basket, the first seen. */
export const BASKET_ITEMS_CAP = 30;
/** Item numbers stay below it (they are at most the build's item bound plus a list, far below). */
const HIGH = 2 ** 24;
const EMPTY = -1;

export class PairCounts {
  /** Pair keys (`EMPTY` for a free slot) and the baskets holding both items. */
  private keys = new Float64Array(1024).fill(EMPTY);
  private counts = new Uint32Array(1024);
  /** Item → baskets holding it. */
  private readonly support: number[] = [];
  private size = 0;
  /** Pairs counted at most this many times were dropped (see `prune`). */
  private floor = 0;

  constructor(private readonly maxPairs: number) {}

  /** One basket: each item and each pair of its (distinct) items counts once. */
  add(items: readonly number[]): void {
    for (const id of items) this.support[id] = (this.support[id] ?? 0) + 1;
    for (let i = 0; i < items.length; i++) {
      for (let j = i + 1; j < items.length; j++) {
        this.bump(Math.min(items[i], items[j]), Math.max(items[i], items[j]));
      }
    }
    if (this.size > this.maxPairs) this.prune();
  }

  /** The slot of `key` (its own, or the free one where it would go). */
  private slot(key: number, low: number, high: number): number {
    const mask = this.keys.length - 1;
    let at = Math.imul(low, 0x9e3779b1) ^ Math.imul(high, 0x85ebca6b);
    at = (at ^ (at >>> 15)) & mask;
    while (this.keys[at] !== EMPTY && this.keys[at] !== key) at = (at + 1) & mask;
    return at;
  }

  private bump(low: number, high: number): void {
    const key = low * HIGH + high;
    const at = this.slot(key, low, high);
    if (this.keys[at] === EMPTY) {
      this.keys[at] = key;
      this.size++;
      if (this.size * 2 > this.keys.length) {
        this.counts[at] = 1;
        this.rehash(this.keys.length * 2, () => true);
        return;
      }
    }
    this.counts[at]++;
  }

  /** The pairs kept, in a table of `capacity` slots. */
  private rehash(capacity: number, keep: (low: number, high: number, count: number) => boolean): void {
    const { keys, counts } = this;
    this.keys = new Float64Array(capacity).fill(EMPTY);
    this.counts = new Uint32Array(capacity);
    this.size = 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key === EMPTY) continue;
      const low = Math.floor(key / HIGH);
      const high = key - low * HIGH;
      if (!keep(low, high, counts[i])) continue;
      const at = this.slot(key, low, high);
      this.keys[at] = key;
      this.counts[at] = counts[i];
      this.size++;
    }
  }

  /**
   * Past `maxPairs`, the rarest pairs go (counted once, then twice…) until half are left: a flood of baskets of
   * random objectIDs makes pairs seen once, which go first; pairs shoppers repeat stay.
   */
  private prune(): void {
    while (this.size > this.maxPairs / 2) {
      this.floor++;
      this.rehash(this.keys.length, (_low, _high, count) => count > this.floor);
    }
  }

  /** Forgets items (their numbers are about to be given to other objectIDs). */
  forget(dead: ReadonlySet<number>): void {
    for (const id of dead) this.support[id] = 0;
    this.rehash(this.keys.length, (low, high) => !dead.has(low) && !dead.has(high));
  }

  /**
   * Each item's best partners, scored 0 to 100: a cosine (pairs / √(basketsA × basketsB)) damped for small
   * supports (× pairs / (pairs + 1)); ties by objectID.
   */
  table(nameOf: (id: number) => string): PartnerTable {
    // Every pair twice (each item's partner), grouped by item in flat arrays: no object per pair.
    const degree = new Uint32Array(this.support.length + 1);
    this.eachPair((low, high) => {
      degree[low + 1]++;
      degree[high + 1]++;
    });
    const offset = degree;
    for (let id = 0; id < this.support.length; id++) offset[id + 1] += offset[id];
    const fill = offset.slice(0, this.support.length);
    const to = new Uint32Array(offset[this.support.length]);
    const score = new Float64Array(to.length);
    this.eachPair((low, high, count) => {
      const cosine = count / Math.sqrt(this.support[low] * this.support[high]);
      const value = Math.round(100 * Math.min(1, cosine) * (count / (count + 1)) * 100) / 100;
      to[fill[low]] = high;
      score[fill[low]++] = value;
      to[fill[high]] = low;
      score[fill[high]++] = value;
    });
    const items: Array<{ id: number; name: string }> = [];
    for (let id = 0; id < this.support.length; id++) if (offset[id + 1] > offset[id]) items.push({ id, name: nameOf(id) });
    items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // Positions follow objectID order: ties are broken by position.
    const position = new Uint32Array(this.support.length);
    items.forEach(({ id }, i) => (position[id] = i));
    const starts = new Uint32Array(items.length + 1);
    const partners: number[] = [];
    const scores: number[] = [];
    items.forEach(({ id }, i) => {
      const order: number[] = [];
      for (let p = offset[id]; p < offset[id + 1]; p++) order.push(p);
      order.sort((a, b) => score[b] - score[a] || position[to[a]] - position[to[b]]);
      for (const p of order.slice(0, PARTNERS_PER_ITEM)) {
        partners.push(position[to[p]]);
        scores.push(score[p]);
      }
      starts[i + 1] = partners.length;
    });
    return { ids: packIds(items.map(({ name }) => name)), starts, partners: Uint32Array.from(partners), scores: Float64Array.from(scores) };
  }

  private eachPair(visit: (low: number, high: number, count: number) => void): void {
    for (let i = 0; i < this.keys.length; i++) {
      const key = this.keys[i];
      if (key === EMPTY) continue;
      const low = Math.floor(key / HIGH);
      visit(low, key - low * HIGH, this.counts[i]);
    }
  }
}
