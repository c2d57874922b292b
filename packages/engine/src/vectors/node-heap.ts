/**
 * A binary max-heap of (node, key) pairs in typed arrays, reused from one graph search to the next (an HNSW
 * search pushes thousands of pairs: no object per pair). A min-heap is this heap over negated keys.
 */
export class NodeHeap {
  private keys: Float64Array;
  private ids: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.keys = new Float64Array(capacity);
    this.ids = new Int32Array(capacity);
  }

  reset(): this {
    this.size = 0;
    return this;
  }

  /** The largest key (undefined behaviour when empty). */
  get topKey(): number {
    return this.keys[0];
  }

  push(id: number, key: number): void {
    if (this.size === this.keys.length) this.grow();
    const keys = this.keys;
    const ids = this.ids;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent] >= key) break;
      keys[i] = keys[parent];
      ids[i] = ids[parent];
      i = parent;
    }
    keys[i] = key;
    ids[i] = id;
  }

  /** Takes the pair of the largest key away; returns its node. */
  pop(): number {
    const keys = this.keys;
    const ids = this.ids;
    const top = ids[0];
    const n = --this.size;
    if (n === 0) return top;
    const key = keys[n];
    const id = ids[n];
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && keys[right] > keys[left] ? right : left;
      if (keys[child] <= key) break;
      keys[i] = keys[child];
      ids[i] = ids[child];
      i = child;
    }
    keys[i] = key;
    ids[i] = id;
    return top;
  }

  private grow(): void {
    const keys = new Float64Array(this.keys.length * 2);
    keys.set(this.keys);
    const ids = new Int32Array(this.ids.length * 2);
    ids.set(this.ids);
    this.keys = keys;
    this.ids = ids;
  }
}
