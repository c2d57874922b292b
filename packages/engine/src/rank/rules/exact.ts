/**
 * `exact`: more query words matched as whole words (no typo, not merely a prefix) first; plural forms and
 * synonyms count as exact. For a one-word query, with `exactOnSingleWordQuery: attribute` (the default), exact
 * means an attribute value is that word alone; with `none` the criterion is off for one-word queries.
 */
import type { RuleFactory } from '../rule.ts';
import { queryBitsets } from '../../structures/bitset-pool.ts';

export const exactRule: RuleFactory = (context) => {
  const { words, scanner } = context;
  if (words.length === 0) return null;
  const single = words.length === 1;
  if (single && context.exactOnSingleWord === 'none') return null;
  if (context.verify) {
    return {
      name: 'exact',
      key(doc) {
        scanner.scan(doc);
        return 0 - scanner.exactAt(doc);
      },
    };
  }
  const sets = words.map((w) => (single && context.exactOnSingleWord === 'attribute' ? w.sole() : w.exact()));
  return {
    name: 'exact',
    key(doc) {
      let exact = 0;
      for (const set of sets) if (set.has(doc)) exact++;
      // `0 - n`, not `-n`: -0 is no small integer, and a key of -0 was a heap number allocated per document.
      return 0 - exact;
    },
    split(set, count) {
      const all = queryBitsets.copy(set);
      let allCount = count;
      for (const exact of sets) allCount = all.andCount(exact);
      return [
        { set: () => all, count: allCount, resolved: true },
        // With one word the rest all score 0: resolved too.
        { set: () => queryBitsets.copy(set).andNot(all), count: count - allCount, resolved: single },
      ];
    },
  };
};
