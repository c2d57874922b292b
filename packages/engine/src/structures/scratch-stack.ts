/**
 * Typed arrays for the temporaries of a recursive computation (ranking's keys and groups per bucket), taken and
 * given back in stack order from one buffer kept from search to search.
 *
 * A new typed array per bucket was a good part of what a search allocated (a kilobyte-sized array of keys per
 * small bucket, its groups, their ArrayBuffers): young-generation collections, and the slowest searches with
 * them, come at the rate a search allocates. Here a temporary costs a view (`subarray`) of the shared buffer.
 * A view taken stays valid after the buffer grows (it keeps the old buffer alive); `release(mark)` gives back
 * everything taken since `mark()`, so a caller brackets its work with the two, even when it throws.
 */
export class ScratchStack<T extends Float64Array | Uint32Array> {
  private buffer: T;
  private top = 0;

  constructor(private readonly make: (length: number) => T) {
    this.buffer = make(4096);
  }

  /** `length` slots above everything taken and not yet given back; their contents are whatever was left there. */
  take(length: number): T {
    if (this.top + length > this.buffer.length) {
      // The views already taken keep the old buffer; what is taken from now on comes from the new one.
      this.buffer = this.make(Math.max(2 * this.buffer.length, this.top + length));
    }
    const view = this.buffer.subarray(this.top, this.top + length) as T;
    this.top += length;
    return view;
  }

  mark(): number {
    return this.top;
  }

  release(mark: number): void {
    this.top = mark;
  }
}
