/**
 * A column's 8-bit codes in WebAssembly memory, with two dot products over them in WebAssembly SIMD: bytes by
 * bytes (`dot8`, two stored vectors: the graph's links) and 16-bit numbers by bytes (`dot16`, a query scaled to
 * 16 bits: searches). JavaScript cannot vectorise a loop: its dot product of 384 bytes takes ~360 ns on the
 * shared machine, these ~40, and a graph insert computes thousands (docs/PERFORMANCE.md, *Vectors*).
 *
 * The module is a few hundred bytes, written out below rather than built by a toolchain. Each arena is a memory
 * of its own (freed with its column), growing by whole pages; growing replaces the memory's buffer, so `bytes`
 * is read again after any `alloc`. Integer sums are exact: at most 4,096 dimensions, |code| ≤ 127 and a query's
 * numbers kept under 2³¹ / (127 · dimensions) (`queryScale`), no lane overflows.
 */

interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => { buffer: ArrayBuffer; grow(pages: number): number };
}
type Dot = (a: number, b: number, n: number) => number;

const PAGE = 65536;
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    const low = n & 0x7f;
    n >>>= 7;
    out.push(n === 0 ? low : low | 0x80);
  } while (n !== 0);
  return out;
};
const name = (s: string): number[] => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
const section = (id: number, bytes: number[]): number[] => [id, ...leb(bytes.length), ...bytes];
const simd = (op: number): number[] => [0xfd, ...leb(op)];
const get = (local: number): number[] => [0x20, local];
const set = (local: number): number[] => [0x21, local];
const advance = (local: number, by: number): number[] => [...get(local), 0x41, by, 0x6a, ...set(local)];

/**
 * `f(a, b, n)`: the sum over i < n of x[a + i·w] · code[b + i] (x: bytes when w = 1, 16-bit numbers when 2).
 * Blocks of 16 in SIMD lanes, the rest one by one. Locals: 3 acc (v128), 4 end, 5 sum (i32), 6 codes (v128).
 */
function dotBody(width: 1 | 2): number[] {
  const A = 0;
  const B = 1;
  const N = 2;
  const ACC = 3;
  const END = 4;
  const SUM = 5;
  const CODES = 6;
  const load = [...simd(0), 0, 0];
  const add = (products: number[]): number[] => [...products, ...get(ACC), ...simd(0xae), ...set(ACC)];
  const blocks =
    width === 1
      ? [
          // i16x8.extmul_{low,high}_i8x16_s, then i32x4.extadd_pairwise_i16x8_s.
          ...add([...get(A), ...load, ...get(CODES), ...simd(0x9c), ...simd(0x7e)]),
          ...add([...get(A), ...load, ...get(CODES), ...simd(0x9d), ...simd(0x7e)]),
        ]
      : [
          // i16x8.extend_{low,high}_i8x16_s, then i32x4.dot_i16x8_s with 8 of the query's numbers.
          ...add([...get(A), ...load, ...get(CODES), ...simd(0x87), ...simd(0xba)]),
          ...add([...get(A), ...simd(0), 0, 16, ...get(CODES), ...simd(0x88), ...simd(0xba)]),
        ];
  const lane = (i: number): number[] => [...get(ACC), ...simd(0x1b), i];
  const loadX = width === 1 ? [0x2c, 0, 0] : [0x2e, 1, 0];
  return [
    3, 1, 0x7b, 2, 0x7f, 1, 0x7b,
    // end = b + (n & ~15)
    ...get(B), ...get(N), 0x41, 0x70, 0x71, 0x6a, ...set(END),
    0x02, 0x40, ...get(B), ...get(END), 0x4f, 0x0d, 0,
    0x03, 0x40,
    ...get(B), ...load, ...set(CODES), ...blocks, ...advance(A, 16 * width), ...advance(B, 16),
    ...get(B), ...get(END), 0x49, 0x0d, 0, 0x0b, 0x0b,
    ...lane(0), ...lane(1), 0x6a, ...lane(2), 0x6a, ...lane(3), 0x6a, ...set(SUM),
    // end += n & 15
    ...get(END), ...get(N), 0x41, 15, 0x71, 0x6a, ...set(END),
    0x02, 0x40, ...get(B), ...get(END), 0x4f, 0x0d, 0,
    0x03, 0x40,
    ...get(SUM), ...get(A), ...loadX, ...get(B), 0x2c, 0, 0, 0x6c, 0x6a, ...set(SUM), ...advance(A, width), ...advance(B, 1),
    ...get(B), ...get(END), 0x49, 0x0d, 0, 0x0b, 0x0b,
    ...get(SUM), 0x0b,
  ];
}

let compiled: object | undefined;
function module(): object {
  const bodies = [dotBody(1), dotBody(2)].flatMap((body) => [...leb(body.length), ...body]);
  compiled ??= new wasm.Module(
    Uint8Array.from([
      ...[0, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
      ...section(1, [1, 0x60, 3, 0x7f, 0x7f, 0x7f, 1, 0x7f]),
      ...section(2, [1, ...name('e'), ...name('m'), 0x02, 0x00, 0]),
      ...section(3, [2, 0, 0]),
      ...section(7, [2, ...name('dot8'), 0, 0, ...name('dot16'), 0, 1]),
      ...section(10, [2, ...bodies]),
    ]),
  );
  return compiled;
}

export class CodeArena {
  private readonly memory: { buffer: ArrayBuffer; grow(pages: number): number };
  /** The whole memory as bytes (replaced when it grows). */
  bytes: Int8Array;
  /** The same memory as 16-bit numbers (for a query's, at an even offset). */
  words: Int16Array;
  /** Bytes allocated so far. */
  private top = 0;
  /** x · code over n bytes of stored codes at a and b. */
  readonly dot8: Dot;
  /** q · code over n 16-bit numbers at byte offset q and n codes at b. */
  readonly dot16: Dot;

  constructor() {
    this.memory = new wasm.Memory({ initial: 1 });
    const { exports } = new wasm.Instance(module(), { e: { m: this.memory } });
    this.dot8 = exports.dot8 as Dot;
    this.dot16 = exports.dot16 as Dot;
    this.bytes = new Int8Array(this.memory.buffer);
    this.words = new Int16Array(this.memory.buffer);
  }

  /** Room for `byteLength` bytes (zeros), 16-aligned; its offset. Read `bytes` again after. */
  alloc(byteLength: number): number {
    const at = this.top;
    this.top = (at + byteLength + 15) & ~15;
    const have = this.memory.buffer.byteLength;
    if (this.top > have) {
      // Doubling: pages never written are never resident, and fewer growths replace fewer views.
      this.memory.grow(Math.ceil(Math.max(this.top - have, have) / PAGE));
      this.bytes = new Int8Array(this.memory.buffer);
      this.words = new Int16Array(this.memory.buffer);
    }
    return at;
  }

  /** Bytes allocated (what the codes hold, with alignment). */
  get allocated(): number {
    return this.top;
  }
}

/**
 * The factor turning a unit query's numbers into 16-bit integers: as fine as 16 bits allow, but small enough
 * that no lane of `dot16` can overflow at these dimensions.
 */
export function queryScale(dimensions: number): number {
  return Math.min(32767, Math.floor(2 ** 31 / (127 * dimensions)) - 1);
}
