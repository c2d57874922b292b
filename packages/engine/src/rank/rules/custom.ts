/**
 * `custom`: the customRanking order, precomputed as one rank per document (see `custom-rank.ts`). A large
 * bucket is walked in that order, stopping at the first documents of the bucket met.
 */
import type { RuleFactory } from '../rule.ts';
import { orderWalkPays, walkOrder } from '../custom-rank.ts';

export const customRule: RuleFactory = (context) => {
  const custom = context.custom;
  if (custom === null) return null;
  const { rank } = custom;
  return {
    name: 'custom',
    key(doc) {
      return rank[doc];
    },
    walkPays: orderWalkPays,
    walk(bucket, visit) {
      walkOrder(custom, (doc) => !bucket.has(doc) || visit(doc, rank[doc]));
    },
  };
};
