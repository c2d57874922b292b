/**
 * Append-only typed arrays that grow geometrically (doubling, then by a quarter once large): the index grows one
 * record at a time, but every structure it derives stays a flat typed array (no per-entry objects for the
 * garbage collector to trace).
 */
/** Entries from which a growable array grows by a quarter rather than doubling. */
const LARGE_ARRAY = 1 << 24;

export class GrowableUint32 {
  data: Uint32Array;
  length = 0;

  constructor(initialCapacity = 16) {
    this.data = new Uint32Array(Math.max(4, initialCapacity));
  }

  static from(values: Uint32Array): GrowableUint32 {
    const grown = new GrowableUint32(values.length);
    grown.data.set(values);
    grown.length = values.length;
    return grown;
  }

  /** Adopts `values` without copying (a push past its end reallocates, so the view is never written past). */
  static wrap(values: Uint32Array): GrowableUint32 {
    const grown = new GrowableUint32(4);
    grown.data = values;
    grown.length = values.length;
    return grown;
  }

  /**
   * Adopts `data` whole as the array's capacity, its first `length` entries filled: `data` must be a buffer of
   * its own (a snapshot section read with room to grow, `withRoom`), since pushes write past `length`.
   */
  static adopt(data: Uint32Array, length: number): GrowableUint32 {
    const grown = new GrowableUint32(4);
    grown.data = data;
    grown.length = length;
    // Not trimmed back to its length before it has grown by half: the room was given on purpose.
    grown.trimmedAt = length;
    return grown;
  }

  /** A copy of `values` with room for a quarter more entries (arrays rebuilt at load that writes extend). */
  static withRoom(values: Uint32Array): GrowableUint32 {
    const grown = GrowableUint32.zeroed(values.length);
    grown.data.set(values);
    return grown;
  }

  /** `length` zeros, with room for a quarter more entries (an array filled at load that writes extend). */
  static zeroed(length: number): GrowableUint32 {
    return GrowableUint32.adopt(new Uint32Array(roomToGrow(length)), length);
  }

  push(value: number): void {
    if (this.length === this.data.length) this.reserve(this.length + 1);
    this.data[this.length++] = value;
  }

  reserve(capacity: number): void {
    if (capacity <= this.data.length) return;
    // An array wrapped from an empty snapshot section has length 0: doubling must start from something. Past
    // 16M entries (the forward index of a large catalogue, 64 MB and up) growth slows to a quarter: still
    // amortised O(1) per push, without doubling hundreds of megabytes for the first write after a restore.
    const factor = this.data.length >= LARGE_ARRAY ? 1.25 : 2;
    let next = Math.max(4, Math.ceil(this.data.length * factor));
    while (next < capacity) next = Math.ceil(next * factor);
    const grown = new Uint32Array(next);
    grown.set(this.data.subarray(0, this.length));
    this.data = grown;
  }

  /**
   * Shrinks the capacity to the length when it exceeds it by more than `factor` — only after substantial growth
   * since the last trim, so that a trickle of small writes does not copy the whole array back and forth.
   */
  trim(factor: number): void {
    if (this.length < this.trimmedAt * 1.5) return;
    this.trimmedAt = this.length;
    if (this.data.length > Math.max(16, this.length * factor)) this.data = this.data.slice(0, Math.max(4, this.length));
  }

  private trimmedAt = 0;

  /** A view of the filled part (shares memory: valid until the next push). */
  view(): Uint32Array {
    return this.data.subarray(0, this.length);
  }

  /** A right-sized copy, for snapshots. */
  trimmed(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}

/**
 * The capacity an array of `length` entries is given at load when writes will extend it: a quarter more (a
 * replay after a crash adds at most a few percent to a large index), so that the first writes after a restart
 * do not copy it. Room never written costs no memory: fresh pages are only mapped when touched.
 */
export function roomToGrow(length: number): number {
  return length + Math.max(1024, Math.ceil(length / 4));
}

/** Room to spare when a derived array has to grow: a run of small writes then reallocates rarely. */
function roomFor(length: number): number {
  return Math.max(1024, length + (length >>> 3));
}

/**
 * `buffer` if it holds `length` elements, else a larger copy of its first `keep` elements. Derived structures
 * extended after each write grow in place this way: at a million documents, allocating fresh arrays of that
 * size on every write costs far more in garbage collection than the copy itself.
 */
export function roomy<T extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(buffer: T, length: number, keep: number): T {
  if (buffer.length >= length) return buffer;
  const grown = new (buffer.constructor as new (length: number) => T)(roomFor(length));
  grown.set(buffer.subarray(0, keep));
  return grown;
}

export function roomyUint32(buffer: Uint32Array, length: number, keep: number): Uint32Array {
  return roomy(buffer, length, keep);
}

export function roomyFloat64(buffer: Float64Array, length: number, keep: number): Float64Array {
  return roomy(buffer, length, keep);
}
