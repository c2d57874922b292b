/**
 * `attribute`: matches in more important attributes first (rank in searchableAttributes), then, within an
 * ordered attribute, matches nearer its start. Key = rank × 1000 + position (0 for `unordered` attributes),
 * the best over the query words.
 *
 * A large bucket is walked through the words' postings grouped by attribute key (see `index/partitioned.ts`),
 * best key first: each document is met first at its best key, and the walk stops once enough are placed.
 */
import type { RuleFactory } from '../rule.ts';
import { EMPTY_PARTITIONED, type Partitioned } from '../../index/partitioned.ts';
import { queryBitsets } from '../../structures/bitset-pool.ts';

/**
 * The segments of a walk (one per term and attribute key: a prefix of one or two letters has hundreds of terms),
 * as typed arrays reused from walk to walk rather than an object each: segment i is `lists[list[i]].docs[from[i]
 * .. to[i])` at `key[i]`. A walk is ordered by sorting `order`, each segment's key and index packed in one
 * number (key × 2^SHIFT + i, exact while below 2^53): numbers sort without a comparator or a copy, and ties
 * keep the segments' order, as the stable sort of objects did. A walk started from inside another (a ranking
 * naming `attribute` twice) gets arrays of its own.
 */
class Segments {
  key = new Uint32Array(256);
  list = new Uint32Array(256);
  from = new Uint32Array(256);
  to = new Uint32Array(256);
  order = new Float64Array(256);
  /** The postings lists the segments are of (`listCount` of them): entries past it are placeholders. */
  readonly lists: Partitioned[] = [];
  listCount = 0;
  count = 0;
  /** The terms met so far (a term may stand for several words). */
  readonly terms = new Set<number>();

  addList(list: Partitioned): number {
    this.lists[this.listCount] = list;
    return this.listCount++;
  }

  add(key: number, list: number, from: number, to: number): void {
    const i = this.count++;
    if (i === this.key.length) this.grow();
    this.key[i] = key;
    this.list[i] = list;
    this.from[i] = from;
    this.to[i] = to;
  }

  private grow(): void {
    const size = this.key.length * 2;
    const widen = <T extends Uint32Array | Float64Array>(old: T, fresh: T): T => {
      fresh.set(old as never);
      return fresh;
    };
    this.key = widen(this.key, new Uint32Array(size));
    this.list = widen(this.list, new Uint32Array(size));
    this.from = widen(this.from, new Uint32Array(size));
    this.to = widen(this.to, new Uint32Array(size));
    this.order = new Float64Array(size);
  }

  /** Fills `order[0..count)` with the segments in ascending key order, ties in the order they were added. */
  sort(): Float64Array {
    const { count, key } = this;
    const order = this.order.subarray(0, count);
    let maxKey = 0;
    for (let i = 0; i < count; i++) if (key[i] > maxKey) maxKey = key[i];
    if (maxKey * SPAN + SPAN > Number.MAX_SAFE_INTEGER || count > SPAN) {
      // Keys too large to pack (not seen in practice: rank × 1000 + position): sort indexes by key, then index.
      const indexes = Array.from({ length: count }, (_, i) => i).sort((a, b) => key[a] - key[b] || a - b);
      for (let i = 0; i < count; i++) order[i] = indexes[i];
      return order;
    }
    for (let i = 0; i < count; i++) order[i] = key[i] * SPAN + i;
    order.sort();
    for (let i = 0; i < count; i++) order[i] = order[i] % SPAN;
    return order;
  }

  /** Forgets the walk, keeping the arrays (and no postings list alive). */
  clear(): void {
    this.count = 0;
    for (let l = 0; l < this.listCount; l++) this.lists[l] = EMPTY_PARTITIONED;
    this.listCount = 0;
    this.terms.clear();
  }
}

const SPAN = 2 ** 24;
let spare: Segments | null = new Segments();

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
      const segments = spare ?? new Segments();
      spare = null;
      try {
        const seen = segments.terms;
        for (const word of words) {
          for (const alternative of word.alternatives) {
            const termId = alternative.termId;
            if (seen.has(termId)) continue;
            seen.add(termId);
            for (const grouped of text.groups(termId)) {
              const list = segments.addList(grouped);
              const { keys, starts } = grouped;
              for (let g = 0; g < keys.length; g++) segments.add(keys[g], list, starts[g], starts[g + 1]);
            }
          }
        }
        const order = segments.sort();
        // The bucket's documents not visited yet: a document's first segment is its best key. One bitset (it fits
        // in cache, where a stamp per document would not) answers both "in the bucket?" and "seen?".
        const unseen = queryBitsets.copy(bucket).words;
        for (let o = 0; o < order.length; o++) {
          const i = order[o];
          const docs = segments.lists[segments.list[i]].docs;
          const segmentKey = segments.key[i];
          for (let k = segments.from[i], to = segments.to[i]; k < to; k++) {
            const doc = docs[k];
            const word = doc >>> 5;
            const bit = 1 << (doc & 31);
            if ((unseen[word] & bit) === 0) continue;
            unseen[word] ^= bit;
            if (!visit(doc, segmentKey)) return;
          }
        }
      } finally {
        segments.clear();
        spare = segments;
      }
    },
  };
};
