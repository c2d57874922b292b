/** Selection shared by ranking (the `need`-th key of a bucket) and faceting (the top values of a facet). */

/** The k-th smallest value (1-based k ≤ length), with a bounded max-heap: O(n log k). `heap`: room for k values, or one is made. */
export function kthSmallest(values: Float64Array, k: number, heap: Float64Array = new Float64Array(k)): number {
  let size = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (size < k) {
      let c = size++;
      heap[c] = v;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (heap[p] >= heap[c]) break;
        const t = heap[p];
        heap[p] = heap[c];
        heap[c] = t;
        c = p;
      }
    } else if (v < heap[0]) {
      heap[0] = v;
      let p = 0;
      for (;;) {
        const l = 2 * p + 1;
        if (l >= k) break;
        const m = l + 1 < k && heap[l + 1] > heap[l] ? l + 1 : l;
        if (heap[m] <= heap[p]) break;
        const t = heap[p];
        heap[p] = heap[m];
        heap[m] = t;
        p = m;
      }
    }
  }
  return heap[0];
}
