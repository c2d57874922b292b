/**
 * What every snapshot carries besides the store's own sections: the structures derived from records that a
 * restored index would otherwise rebuild on its first searches, each a pass over every record (at a million
 * products, 7–15 s for a customRanking order, most of it parsing records; a second for the adjacent pairs).
 *
 * - the adjacent-pairs filter (`pairs.*`);
 * - the order of the index's own customRanking (`custom.*`, as before);
 * - the orders of the other customRanking lists the caller names (its virtual replicas', which search these
 *   records with their own customRanking): `orders` lists them, each order under `orders.<i>.*`.
 *
 * One that no search built yet is built here, in steps (the caller answers searches between them), and kept in
 * the store: searches use it, writes extend it, and the next snapshot only extends and saves it. Rejected:
 * leaving out what no search built (the earlier rule, meant to spare an import a pass over every record at each
 * snapshot): a snapshot written after an import nobody searched then made the next start rebuild them all, and
 * virtual replicas' orders were never saved.
 *
 * Snapshots written before (any of these sections missing) still load: what they lack is built on first use.
 */
import { createEngineError } from '../errors.ts';
import { restoreAdjacentPairs, saveAdjacentPairs } from '../index/adjacent-pairs.ts';
import type { IndexStore } from '../index/store.ts';
import { customOrderDeps, customOrderFor, customOrderKey, customOrdersInSteps, mergePending } from '../rank/custom-rank.ts';
import { loadCustomOrder, saveCustomOrder } from '../rank/custom-order-snapshot.ts';
import { parseCustomRanking, type SortSpec } from '../settings.ts';
import type { SnapshotReader, SnapshotWriter } from './format.ts';

const OWN_PREFIX = 'custom';
const EXTRA_LIST = 'orders';

/** The derived structures a snapshot held when an index was restored from it (`restoreDerived`). */
export interface DerivedHeld {
  pairs: boolean;
  /** `customOrderKey` of each order it held. */
  orders: Set<string>;
}

/**
 * The customRanking lists whose orders a snapshot saves: the index's own (`own`, may be empty) first, then each of
 * `extra` that is not empty and not a list already there.
 */
function orderedLists(own: SortSpec[], extra: readonly SortSpec[][]): SortSpec[][] {
  const lists = new Map<string, SortSpec[]>();
  for (const specs of [own, ...extra]) if (specs.length > 0 && !lists.has(customOrderKey(specs))) lists.set(customOrderKey(specs), specs);
  return [...lists.values()];
}

/**
 * Gives `w` the derived sections, pausing (yielding) between steps: the store must not change until the last.
 * `own` is the index's customRanking, `extra` the other lists whose orders to save.
 */
export function* describeDerived(store: IndexStore, w: SnapshotWriter, own: SortSpec[], extra: readonly SortSpec[][]): Generator<void, void, void> {
  yield* saveAdjacentPairs(store, w);
  const lists = orderedLists(own, extra);
  const missing = lists.filter((specs) => !store.hasCached(customOrderKey(specs)));
  if (missing.length > 0) {
    yield;
    const built = yield* customOrdersInSteps(store.records, missing);
    missing.forEach((specs, i) => {
      // A search between two steps may have built one meanwhile (the same order): that one stays.
      if (!store.hasCached(customOrderKey(specs))) store.seed(customOrderKey(specs), built[i], customOrderDeps(store, specs));
    });
  }
  const extras = lists.filter((specs) => specs !== own);
  if (extras.length > 0) w.json(EXTRA_LIST, extras.map((specs) => specs.map(sortName)));
  for (const specs of lists) {
    yield;
    // Pending documents merged first (a snapshot holds whole-number ranks); the merge reuses the order's arrays,
    // so the merged order replaces it in the store.
    const order = mergePending(customOrderFor(store, specs));
    store.seed(customOrderKey(specs), order, customOrderDeps(store, specs));
    saveCustomOrder(w, specs === own ? OWN_PREFIX : `${EXTRA_LIST}.${extras.indexOf(specs)}`, order);
  }
}

/** Seeds `store` (just loaded) with every derived structure the snapshot holds; `own` is the index's customRanking. */
export function restoreDerived(store: IndexStore, r: SnapshotReader, own: SortSpec[]): DerivedHeld {
  const held: DerivedHeld = { pairs: restoreAdjacentPairs(store, r), orders: new Set() };
  const seed = (prefix: string, specs: SortSpec[]): void => {
    const order = loadCustomOrder(r, prefix, specs, store.capacity);
    if (order === undefined) return;
    store.seed(customOrderKey(specs), order, customOrderDeps(store, specs));
    held.orders.add(customOrderKey(specs));
  };
  if (own.length > 0) seed(OWN_PREFIX, own);
  if (r.has(EXTRA_LIST)) savedLists(r).forEach((specs, i) => seed(`${EXTRA_LIST}.${i}`, specs));
  return held;
}

/** Whether a snapshot that held `held` holds everything `describeDerived(…, own, extra)` would save. */
export function holdsDerived(held: DerivedHeld, own: SortSpec[], extra: readonly SortSpec[][]): boolean {
  return held.pairs && orderedLists(own, extra).every((specs) => held.orders.has(customOrderKey(specs)));
}

/** The lists of the `orders` section, as customRanking settings (`desc(popularity)`) parsed again. */
function savedLists(r: SnapshotReader): SortSpec[][] {
  const raw = r.json<unknown>(EXTRA_LIST);
  if (!Array.isArray(raw)) throw createEngineError('INVALID_SNAPSHOT', 'customRanking orders');
  return raw.map((list) => {
    try {
      return parseCustomRanking(list);
    } catch {
      throw createEngineError('INVALID_SNAPSHOT', 'customRanking orders');
    }
  });
}

function sortName(spec: SortSpec): string {
  return `${spec.ascending ? 'asc' : 'desc'}(${spec.attribute})`;
}
