/**
 * What a search asks of an embedder's vectors: the `k` nearest to a query vector among the allowed documents.
 * The engine calls only this interface: the exact scan (`exact-index.ts`) is its first implementation, and the
 * oracle of any approximate one added later (an HNSW graph or a native library, chosen by measurement).
 */
import type { Bitset } from '../structures/bitset.ts';

export interface VectorHit {
  doc: number;
  /** Cosine similarity to the query, from the float32 vectors (-1 to 1). */
  score: number;
}

export interface VectorIndex {
  /**
   * The `k` documents with a vector nearest to `query` by cosine, best first (ties: lower id first), among the
   * documents of `allowed` (null: every document with a vector); `allowedCount` is its size when known.
   */
  nearest(query: Float32Array, k: number, allowed: Bitset | null, allowedCount?: number): VectorHit[];
}
