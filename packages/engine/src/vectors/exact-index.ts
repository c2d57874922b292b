/**
 * Exact nearest neighbours by scanning: every allowed vector's 8-bit codes give an interval surely holding its
 * cosine to the query (`vector-column.ts`); the k-th best lower end is a threshold no vector of the answer is
 * below, so only the vectors whose upper end reaches it are re-scored from their float32 values. The answer is
 * exactly the top k of a scan of the float32 vectors (`exact-index.test.ts` checks it against a naive cosine
 * oracle), for a byte read per dimension rather than four.
 *
 * Cost: one pass over the codes of the allowed vectors (O(n · d)); a filter allowing few documents is walked by
 * its documents instead of the vectors. At a million vectors that pass is what an approximate index replaces.
 */
import type { Bitset } from '../structures/bitset.ts';
import { unit } from './hnsw-graph.ts';
import type { VectorChunk, VectorColumn } from './vector-column.ts';
import type { VectorHit, VectorIndex } from './vector-index.ts';

/** Cosine of two vectors, summed in float64 in index order. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>, offsetB = 0): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[offsetB + i];
    dot += x * y;
    aa += x * x;
    bb += y * y;
  }
  return dot / (Math.sqrt(aa) * Math.sqrt(bb));
}

/** The k largest numbers seen (a min-heap): its root is the k-th largest once full. */
class TopLowers {
  private readonly heap: Float64Array;
  size = 0;
  constructor(readonly k: number) {
    this.heap = new Float64Array(k);
  }
  /** The k-th largest so far, or -Infinity while fewer than k were offered. */
  get threshold(): number {
    return this.size < this.k ? Number.NEGATIVE_INFINITY : this.heap[0];
  }
  offer(value: number): void {
    const heap = this.heap;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (heap[parent] <= value) break;
        heap[i] = heap[parent];
        i = parent;
      }
      heap[i] = value;
      return;
    }
    if (value <= heap[0]) return;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= this.k) break;
      const right = left + 1;
      const child = right < this.k && heap[right] < heap[left] ? right : left;
      if (heap[child] >= value) break;
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = value;
  }
}

export class ExactVectorIndex implements VectorIndex {
  constructor(private readonly column: VectorColumn) {}

  nearest(query: Float32Array, k: number, allowed: Bitset | null, allowedCount?: number): VectorHit[] {
    const column = this.column;
    const d = column.dimensions;
    if (k <= 0 || column.count === 0 || query.length !== d) return [];
    // The query as 16-bit numbers for the arena's dot product; its rounding widens each interval.
    const { factor: queryFactor, error } = column.prepareQuery(unit(query));
    const { arena, queryAt } = column;
    const lowers = new TopLowers(k);
    // Candidates: (chunk, slot, upper end) of every vector whose upper end reached the threshold when seen.
    const chunksOf: VectorChunk[] = [];
    const locals: number[] = [];
    const uppers: number[] = [];
    const visit = (chunk: VectorChunk, local: number): void => {
      const estimate = arena.dot16(queryAt, chunk.codesAt + local * d, d) * chunk.factor[local] * queryFactor;
      const bound = chunk.bound[local] * (1 + error) + error;
      lowers.offer(estimate - bound);
      if (estimate + bound >= lowers.threshold) {
        chunksOf.push(chunk);
        locals.push(local);
        uppers.push(estimate + bound);
      }
    };
    if (allowed !== null && (allowedCount ?? allowed.count()) * 2 < column.count) {
      allowed.forEach((doc) => {
        const slot = column.slotOfDoc(doc);
        if (slot < 0) return;
        const chunk = column.chunkOf(slot);
        visit(chunk, slot - chunk.start);
      });
    } else {
      for (const chunk of column.allChunks) {
        for (let local = 0; local < chunk.used; local++) {
          const doc = column.docOfSlot(chunk, local);
          if (doc >= 0 && (allowed === null || allowed.has(doc))) visit(chunk, local);
        }
      }
    }
    const threshold = lowers.threshold;
    const hits: VectorHit[] = [];
    for (let c = 0; c < uppers.length; c++) {
      if (uppers[c] < threshold) continue;
      const chunk = chunksOf[c];
      hits.push({ doc: chunk.docs[locals[c]], score: cosine(query, column.fullOf(chunk, locals[c])) });
    }
    hits.sort((a, b) => b.score - a.score || a.doc - b.doc);
    if (hits.length > k) hits.length = k;
    return hits;
  }
}
