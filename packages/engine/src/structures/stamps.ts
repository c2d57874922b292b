/**
 * One mark per document, reset in O(1): a mark "is set" when it equals the current stamp, and taking a new stamp
 * clears every mark at once. Lets a walk visit each document once without allocating per query.
 */
export class Stamps {
  marks = new Uint32Array(0);
  private current = 0;

  /** This object, with room for `capacity` documents. */
  sized(capacity: number): this {
    if (this.marks.length < capacity) {
      this.marks = new Uint32Array(Math.max(capacity, this.marks.length * 2));
      this.current = 0;
    }
    return this;
  }

  next(): number {
    if (this.current === 0xffffffff) {
      this.marks.fill(0);
      this.current = 0;
    }
    return ++this.current;
  }
}
