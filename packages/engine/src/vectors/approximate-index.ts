/**
 * Approximate nearest neighbours: the HNSW graph over the column's 8-bit codes (`hnsw-graph.ts`) finds `ef`
 * candidates, re-scored from their float32 vectors (or ranked by their codes alone, `rescore: false`, the
 * measured alternative for a column that would not hold its float32 vectors in memory).
 *
 * Filters: the graph search walks through the documents a filter refuses (and deleted ones) without keeping
 * them, so it goes on until it has `ef` allowed ones: its cost grows as n / allowed, while the exact index
 * walking the allowed documents costs in proportion to allowed. They meet where allowed² = c · n; below, the
 * exact index is faster and exact (`exactBalance`: c, placed by `npm run bench:vectors`). A small column is scanned exactly too (`exactCodes`): its
 * scan costs about what a graph search does, and is exact where codes of few dimensions tie many vectors.
 */
import type { Bitset } from '../structures/bitset.ts';
import { cosine, ExactVectorIndex } from './exact-index.ts';
import { unit, type HnswGraph } from './hnsw-graph.ts';
import type { VectorColumn } from './vector-column.ts';
import type { VectorHit, VectorIndex } from './vector-index.ts';

export interface ApproximateOptions {
  /** Candidates a search keeps (at least k); 0: by the column's size (`defaultEf`). */
  efSearch: number;
  /** Columns of at most this many codes (vectors × dimensions) are scanned exactly. */
  exactCodes: number;
  /** A filter allowing fewer than √(this · vectors) documents is answered by the exact index. */
  exactBalance: number;
  /** Re-score the candidates from their float32 vectors (else their codes' estimates are the scores). */
  rescore: boolean;
}

export const DEFAULT_APPROXIMATE: ApproximateOptions = { efSearch: 0, exactCodes: 1_000_000, exactBalance: 1000, rescore: true };

/**
 * The candidates a search keeps unless told: 64 up to 250,000 vectors, then growing as √n up to 256. An HNSW
 * search's recall at a fixed ef falls as its graph grows: at 1,000,000 clustered vectors of 384 dimensions, ef 64
 * found 0.900 of the exact top 10, 128 found 0.956 and 256 0.974, for p50s of 1.2–1.4 ms (docs/PERFORMANCE.md).
 */
export function defaultEf(vectors: number): number {
  return Math.min(256, Math.max(64, Math.round(64 * Math.sqrt(vectors / 250_000))));
}

export class ApproximateVectorIndex implements VectorIndex {
  private readonly options: ApproximateOptions;

  constructor(
    private readonly column: VectorColumn,
    private readonly graph: HnswGraph,
    options: Partial<ApproximateOptions> = {},
  ) {
    this.options = { ...DEFAULT_APPROXIMATE, ...options };
  }

  /** Whether a search with this filter size goes to the exact index. */
  answersExactly(allowedCount: number | null): boolean {
    const vectors = this.column.count;
    return vectors * this.column.dimensions <= this.options.exactCodes || this.graph.nodes === 0 || (allowedCount !== null && allowedCount * allowedCount < vectors * this.options.exactBalance);
  }

  nearest(query: Float32Array, k: number, allowed: Bitset | null, allowedCount?: number): VectorHit[] {
    const column = this.column;
    if (k <= 0 || column.count === 0 || query.length !== column.dimensions) return [];
    const count = allowed === null ? null : (allowedCount ?? allowed.count());
    if (this.answersExactly(count)) return new ExactVectorIndex(column).nearest(query, k, allowed, count ?? undefined);
    const accept = allowed === null ? (slot: number) => column.docAtSlot(slot) >= 0 : (slot: number) => {
      const doc = column.docAtSlot(slot);
      return doc >= 0 && allowed.has(doc);
    };
    const ef = this.options.efSearch > 0 ? this.options.efSearch : defaultEf(column.count);
    const found = this.graph.search(unit(query), Math.max(k, ef), accept);
    // Fewer than k found: fewer allowed vectors than k, or some the graph cannot reach (a filter's documents
    // without vectors, links lost to deletions): the exact index finds all there are.
    if (found.count < k) return new ExactVectorIndex(column).nearest(query, k, allowed, count ?? undefined);
    // Re-scored: only the candidates whose interval (estimate ± bound) reaches the k-th best lower end; the others
    // cannot be among the k best of the candidates. Each one re-scored may be a read from the snapshot file.
    const e = found.queryError;
    const bound = (i: number): number => {
      const chunk = column.chunkOf(found.slots[i]);
      return chunk.bound[found.slots[i] - chunk.start] * (1 + e) + e;
    };
    let threshold = Number.NEGATIVE_INFINITY;
    if (this.options.rescore) {
      const lowers = new Float64Array(found.count);
      for (let i = 0; i < found.count; i++) lowers[i] = found.sims[i] - bound(i);
      threshold = lowers.sort()[found.count - k];
    }
    const hits: VectorHit[] = [];
    for (let i = 0; i < found.count; i++) {
      const slot = found.slots[i];
      const chunk = column.chunkOf(slot);
      const local = slot - chunk.start;
      if (!this.options.rescore) hits.push({ doc: chunk.docs[local], score: found.sims[i] });
      else if (found.sims[i] + bound(i) >= threshold) hits.push({ doc: chunk.docs[local], score: cosine(query, column.fullOf(chunk, local)) });
    }
    hits.sort((a, b) => b.score - a.score || a.doc - b.doc);
    if (hits.length > k) hits.length = k;
    return hits;
  }
}
