/**
 * `asc(attr)` / `desc(attr)` in `ranking` (sort-first, as standard replicas do): by the attribute's first
 * numeric value; records without it come last. Large buckets are walked in the precomputed sorted order.
 */
import type { RankRule, RankContext } from '../rule.ts';

export function sortRule(context: RankContext, attribute: string, ascending: boolean): RankRule {
  const { keys, order } = context.sortOrder(attribute, ascending);
  return {
    name: `${ascending ? 'asc' : 'desc'}(${attribute})`,
    key(doc) {
      return keys[doc];
    },
    walkPays: (count, capacity, need) => (need * capacity) / Math.max(1, count) < count * 4,
    walk(bucket, visit) {
      for (let i = 0; i < order.length; i++) {
        const doc = order[i];
        if (bucket.has(doc) && !visit(doc, keys[doc])) return;
      }
    },
  };
}
