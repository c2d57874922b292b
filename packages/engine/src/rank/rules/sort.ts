/**
 * `asc(attr)` / `desc(attr)` in `ranking` (sort-first, as standard replicas do): by the attribute's first
 * numeric value; records without it come last. Large buckets are walked in the precomputed sorted order.
 */
import type { RankRule, RankContext } from '../rule.ts';
import { orderWalkPays, walkOrder } from '../custom-rank.ts';

export function sortRule(context: RankContext, attribute: string, ascending: boolean): RankRule {
  const sorted = context.sortOrder(attribute, ascending);
  const { keys } = sorted;
  return {
    name: `${ascending ? 'asc' : 'desc'}(${attribute})`,
    key(doc) {
      return keys[doc];
    },
    walkPays: orderWalkPays,
    walk(bucket, visit) {
      walkOrder(sorted, (doc) => !bucket.has(doc) || visit(doc, keys[doc]));
    },
  };
}
