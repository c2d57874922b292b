/**
 * `typo`: fewer typos first: the sum over the query words of the fewest typos each matched with (a word the
 * document does not contain, when optional, adds none). A large bucket splits with bitsets: the documents
 * with no typo at all are those outside every word's "matched only with typos" set.
 */
import type { RuleFactory } from '../rule.ts';
import { queryBitsets } from '../../structures/bitset-pool.ts';

export const typoRule: RuleFactory = (context) => {
  const { words, scanner } = context;
  if (words.length === 0) return null;
  if (context.verify) {
    return {
      name: 'typo',
      key(doc) {
        scanner.scan(doc);
        return scanner.typosAt(doc);
      },
    };
  }
  const withTypos = words.filter((w) => w.levels.length > 1);
  if (withTypos.length === 0) return null;
  return {
    name: 'typo',
    key(doc) {
      let typos = 0;
      for (const word of withTypos) {
        const levels = word.levels;
        if (!word.docs.has(doc)) continue;
        let t = 0;
        while (!levels[t].has(doc)) t++;
        typos += t;
      }
      return typos;
    },
    split(set, count) {
      // Documents that contain a word only through typo variants; everything else in the bucket has no typo.
      const typoOnly = queryBitsets.copy(withTypos[0].docs).andNot(withTypos[0].levels[0]);
      for (let i = 1; i < withTypos.length; i++) typoOnly.or(queryBitsets.copy(withTypos[i].docs).andNot(withTypos[i].levels[0]));
      const clean = queryBitsets.copy(set);
      const cleanCount = clean.andNotCount(typoOnly);
      return [
        { set: () => clean, count: cleanCount, resolved: true },
        { set: () => queryBitsets.copy(set).and(typoOnly), count: count - cleanCount, resolved: false },
      ];
    },
  };
};
