/**
 * Item pairs counted over "baskets" (a session, a user's purchases within a span), for the co-interest and
 * bought-together models, in bounded memory. Items are numbers (`ItemIds`), so a pair is two small integers in
 * nested maps rather than a string joining two objectIDs: no string built per pair, and the build's garbage
 * collector has far less to do (3 of the 10 s a build of 300,000 events took went to collection).
 */
import { packIds } from './model-tables.ts';
import type { PartnerTable } from './model-tables.ts';

/** Partners kept per item. */
const PARTNERS_PER_ITEM = 50;
/** Items counted per basket, the first seen. */
export const BASKET_ITEMS_CAP = 30;

export class PairCounts {
  /** Smaller item → larger item → baskets holding both. */
  private readonly pairs = new Map<number, Map<number, number>>();
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
        const low = Math.min(items[i], items[j]);
        const high = Math.max(items[i], items[j]);
        let partners = this.pairs.get(low);
        if (!partners) this.pairs.set(low, (partners = new Map()));
        const count = partners.get(high);
        if (count === undefined) this.size++;
        partners.set(high, (count ?? 0) + 1);
      }
    }
    if (this.size > this.maxPairs) this.prune();
  }

  /**
   * Past `maxPairs`, the rarest pairs go (counted once, then twice…) until half are left: a flood of baskets of
   * random objectIDs makes pairs seen once, which go first; pairs shoppers repeat stay.
   */
  private prune(): void {
    while (this.size > this.maxPairs / 2) {
      this.floor++;
      this.dropPairs((_low, _high, count) => count <= this.floor);
    }
  }

  /** Forgets items (their numbers are about to be given to other objectIDs). */
  forget(dead: ReadonlySet<number>): void {
    for (const id of dead) this.support[id] = 0;
    this.dropPairs((low, high) => dead.has(low) || dead.has(high));
  }

  private dropPairs(drop: (low: number, high: number, count: number) => boolean): void {
    for (const [low, partners] of this.pairs) {
      for (const [high, count] of partners) {
        if (!drop(low, high, count)) continue;
        partners.delete(high);
        this.size--;
      }
      if (partners.size === 0) this.pairs.delete(low);
    }
  }

  /**
   * Each item's best partners, scored 0 to 100: a cosine (pairs / √(basketsA × basketsB)) damped for small
   * supports (× pairs / (pairs + 1)); ties by objectID.
   */
  table(nameOf: (id: number) => string): PartnerTable {
    const lists = new Map<number, Array<{ id: number; score: number }>>();
    const add = (from: number, to: number, score: number) => {
      let list = lists.get(from);
      if (!list) lists.set(from, (list = []));
      list.push({ id: to, score });
    };
    for (const [low, partners] of this.pairs) {
      for (const [high, count] of partners) {
        const cosine = count / Math.sqrt(this.support[low] * this.support[high]);
        const score = Math.round(100 * Math.min(1, cosine) * (count / (count + 1)) * 100) / 100;
        add(low, high, score);
        add(high, low, score);
      }
    }
    const names = [...lists.keys()].map((id) => ({ id, name: nameOf(id) })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const position = new Map(names.map(({ id }, i) => [id, i]));
    // Positions follow objectID order: ties are broken by position.
    const kept = names.map(({ id }) => lists.get(id)!
      .map((partner) => ({ at: position.get(partner.id)!, score: partner.score }))
      .sort((a, b) => b.score - a.score || a.at - b.at)
      .slice(0, PARTNERS_PER_ITEM));
    const starts = new Uint32Array(names.length + 1);
    kept.forEach((list, i) => (starts[i + 1] = starts[i] + list.length));
    const partners = new Uint32Array(starts[names.length]);
    const scores = new Float64Array(starts[names.length]);
    kept.forEach((list, i) => list.forEach((partner, p) => {
      partners[starts[i] + p] = partner.at;
      scores[starts[i] + p] = partner.score;
    }));
    const ids = packIds(names.map(({ name }) => name));
    return { ids, starts, partners, scores };
  }
}
