/**
 * `attribute`: matches in more important attributes first (rank in searchableAttributes), then, within an
 * ordered attribute, matches nearer its start. Key = rank × 1000 + position (0 for `unordered` attributes),
 * the best over the query words.
 *
 * A large bucket is walked through the words' postings grouped by attribute key (see `index/partitioned.ts`),
 * best key first: each document is met first at its best key, and the walk stops once enough are placed.
 */
import type { RuleFactory } from '../rule.ts';

interface Segment {
  key: number;
  docs: Uint32Array;
  from: number;
  to: number;
}

export const attributeRule: RuleFactory = (context) => {
  const { words, scanner, text, stamps } = context;
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
      const marks = stamps.marks;
      const stamp = stamps.next();
      for (const segment of segments) {
        const docs = segment.docs;
        for (let k = segment.from; k < segment.to; k++) {
          const doc = docs[k];
          // The bucket first: its bits fit in cache, the marks (one word per document) do not, and most
          // postings of a prefix's many terms fall outside the bucket.
          if (!bucket.has(doc) || marks[doc] === stamp) continue;
          marks[doc] = stamp;
          if (!visit(doc, segment.key)) return;
        }
      }
    },
  };
};
