/**
 * `words`: more matched query words first. Only optional words can make documents differ here. A large bucket
 * splits with bitsets: the documents containing every word first.
 */
import type { RuleFactory } from '../rule.ts';
import { queryBitsets } from '../../structures/bitset-pool.ts';

export const wordsRule: RuleFactory = (context) => {
  const { words, scanner } = context;
  if (words.length === 0 || !context.hasOptionalWords) return null;
  if (context.verify) {
    return {
      name: 'words',
      key(doc) {
        scanner.scan(doc);
        return 0 - scanner.matchedWordsAt(doc);
      },
    };
  }
  return {
    name: 'words',
    key(doc) {
      let matched = 0;
      for (const word of words) if (word.docs.has(doc)) matched++;
      // `0 - n`, not `-n`: no -0 (a heap number per document; see exact.ts).
      return 0 - matched;
    },
    split(set, count) {
      const all = queryBitsets.copy(set);
      let allCount = count;
      for (const word of words) allCount = all.andCount(word.docs);
      return [
        { set: () => all, count: allCount, resolved: true },
        { set: () => queryBitsets.copy(set).andNot(all), count: count - allCount, resolved: false },
      ];
    },
  };
};
