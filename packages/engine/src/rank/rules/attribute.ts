/**
 * `attribute`: matches in more important attributes first (rank in searchableAttributes), then, within an
 * ordered attribute, matches nearer its start. Key = rank × 1000 + position (0 for `unordered` attributes),
 * the best over the query words.
 *
 * A large bucket is walked through the words' postings grouped by attribute key (see `index/partitioned.ts`),
 * best key first: each document is met first at its best key, and the walk stops once enough are placed.
 */
import type { RuleFactory } from '../rule.ts';
import { queryBitsets } from '../../structures/bitset-pool.ts';

interface Segment {
  key: number;
  docs: Uint32Array;
  from: number;
  to: number;
}

export const attributeRule: RuleFactory = (context) => {
  const { words, scanner, text } = context;
  if (words.length === 0) return null;
  const key = (doc: number): number => {
    scanner.scan(doc);
    return scanner.attributeAt(doc);
  };
  if (context.verify) return { name: 'attribute', key };
  return {
    name: 'attribute',
    key,
    walkPays: () => true,
    walk(bucket, visit) {
      const segments: Segment[] = [];
      const terms = new Set<number>();
      for (const word of words) for (const alternative of word.alternatives) terms.add(alternative.termId);
      for (const termId of terms) {
        for (const grouped of text.groups(termId)) {
          for (let g = 0; g < grouped.keys.length; g++) {
            segments.push({ key: grouped.keys[g], docs: grouped.docs, from: grouped.starts[g], to: grouped.starts[g + 1] });
          }
        }
      }
      segments.sort((a, b) => a.key - b.key);
      // The bucket's documents not visited yet: a document's first segment is its best key. One bitset (it fits
      // in cache, where a stamp per document would not) answers both "in the bucket?" and "seen?".
      const unseen = queryBitsets.copy(bucket).words;
      for (const segment of segments) {
        const docs = segment.docs;
        for (let k = segment.from; k < segment.to; k++) {
          const doc = docs[k];
          const word = doc >>> 5;
          const bit = 1 << (doc & 31);
          if ((unseen[word] & bit) === 0) continue;
          unseen[word] ^= bit;
          if (!visit(doc, segment.key)) return;
        }
      }
    },
  };
};
