/**
 * The snapshot container: named sections of JSON or typed arrays, each 8-byte aligned, after a small header.
 *
 *   "VITRSNAP" | u32 format version | u32 header length | header (JSON: section table) | padding | payloads
 *
 * Typed arrays are stored raw (little-endian, as every platform Node runs on), so loading a million documents'
 * postings and forward index is a few memory copies rather than any parsing. A u32 section marked `grows` is one
 * that writes after a restore extend: a loader may read it into a buffer of its own with room to spare
 * (`snapshotLayout`), which the index then grows in place instead of copying it on the first write. A section
 * marked `cold` is one the index reads a little of at a time (a search's few float32 vectors): a loader that can
 * read the file at an offset may leave it unread (`SnapshotBytes.readAt`), and its pages out of memory.
 */
import { createEngineError } from '../errors.ts';
import { GrowableUint32, roomToGrow } from '../structures/growable.ts';

const MAGIC = 'VITRSNAP';
export const FORMAT_VERSION = 1;

type Kind = 'json' | 'u32' | 'f64';
interface SectionEntry {
  name: string;
  kind: Kind;
  offset: number;
  length: number;
  grows?: true;
  cold?: true;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A section's payload: bytes, or a generator of its bytes in order (`u32Pieces`), which the section is
 * zero-padded after.
 */
interface Part {
  name: string;
  kind: Kind;
  grows?: true;
  cold?: true;
  byteLength: number;
  bytes?: Uint8Array;
  pieces?: () => Generator<Uint8Array, void, void>;
}

/** The largest piece `SnapshotWriter.pieces` yields: ~0.1-0.5 ms of copying. */
export const PIECE_BYTES = 1 << 20;

const ZEROS = new Uint8Array(16);

export class SnapshotWriter {
  private readonly parts: Part[] = [];

  json(name: string, value: unknown): void {
    this.bytes(name, 'json', encoder.encode(JSON.stringify(value)));
  }

  /** `grows`: writes after a restore extend this array (see the file's comment). */
  u32(name: string, values: Uint32Array, options: { grows?: boolean } = {}): void {
    this.bytes(name, 'u32', new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
    if (options.grows === true) this.parts[this.parts.length - 1].grows = true;
  }

  f64(name: string, values: Float64Array): void {
    this.bytes(name, 'f64', new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  }

  /**
   * A u32 section of `byteLength` bytes (a multiple of 4) whose content `pieces` yields in order (at most
   * `byteLength` bytes, zero-padded up to it): a payload assembled from many arrays (the records, the postings)
   * goes to the snapshot without a buffer of its own. `pieces` runs later, during `pieces()` (see there).
   */
  u32Pieces(name: string, byteLength: number, pieces: () => Generator<Uint8Array, void, void>, options: { grows?: boolean; cold?: boolean } = {}): void {
    if (byteLength % 4 !== 0) throw new Error(`section ${name}: ${byteLength} bytes is not whole 32-bit words`);
    this.parts.push({ name, kind: 'u32', byteLength, pieces, ...(options.grows === true ? { grows: true as const } : {}), ...(options.cold === true ? { cold: true as const } : {}) });
  }

  private bytes(name: string, kind: Kind, bytes: Uint8Array): void {
    this.parts.push({ name, kind, byteLength: bytes.byteLength, bytes });
  }

  /** The whole snapshot in one buffer. */
  finish(): Uint8Array {
    const { header, byteLength } = this.layout();
    const out = new Uint8Array(byteLength);
    let at = 0;
    for (const piece of this.payload(header)) {
      out.set(piece, at);
      at += piece.byteLength;
    }
    return out;
  }

  /**
   * The snapshot's bytes in order, in pieces of at most `PIECE_BYTES`, for a caller writing them to a file: it
   * may do other work between two pieces (answer searches, wait for the write) as long as nothing changes what
   * the sections were given, since typed arrays are read only now, often as views rather than copies. A piece is
   * valid only until the next one is asked for (small ones are gathered in a buffer reused each time).
   */
  *pieces(): Generator<Uint8Array, void, void> {
    const gather = new Gatherer();
    for (const piece of this.payload(this.layout().header)) yield* gather.add(piece);
    yield* gather.flush();
  }

  /** The header, then each section's bytes as given (any size) and its zero padding. */
  private *payload(header: Uint8Array): Generator<Uint8Array, void, void> {
    yield header;
    for (const part of this.parts) {
      let written = 0;
      for (const piece of part.bytes === undefined ? part.pieces!() : [part.bytes]) {
        written += piece.byteLength;
        if (written > part.byteLength) throw new Error(`section ${part.name}: ${written} bytes for ${part.byteLength}`);
        yield piece;
      }
      yield ZEROS.subarray(0, align8(part.byteLength) - written);
    }
  }

  /** The section table and the snapshot's length. */
  private layout(): { header: Uint8Array; byteLength: number } {
    const sections: SectionEntry[] = [];
    let offset = 0;
    for (const part of this.parts) {
      sections.push({ name: part.name, kind: part.kind, offset, length: part.byteLength, ...(part.grows ? { grows: true as const } : {}), ...(part.cold ? { cold: true as const } : {}) });
      offset = align8(offset + part.byteLength);
    }
    const table = encoder.encode(JSON.stringify({ sections }));
    const start = align8(16 + table.byteLength);
    const header = new Uint8Array(start);
    header.set(encoder.encode(MAGIC), 0);
    const view = new DataView(header.buffer);
    view.setUint32(8, FORMAT_VERSION, true);
    view.setUint32(12, table.byteLength, true);
    header.set(table, 16);
    return { header, byteLength: start + offset };
  }
}

/** Gathers small pieces into one reused buffer; large ones pass through, `PIECE_BYTES` at a time. */
class Gatherer {
  private readonly buffer = new Uint8Array(PIECE_BYTES);
  private used = 0;

  *add(piece: Uint8Array): Generator<Uint8Array, void, void> {
    let at = 0;
    while (at < piece.byteLength) {
      if (this.used === 0 && piece.byteLength - at >= PIECE_BYTES) {
        yield piece.subarray(at, at + PIECE_BYTES);
        at += PIECE_BYTES;
        continue;
      }
      const n = Math.min(PIECE_BYTES - this.used, piece.byteLength - at);
      this.buffer.set(piece.subarray(at, at + n), this.used);
      this.used += n;
      at += n;
      if (this.used === PIECE_BYTES) yield* this.flush();
    }
  }

  *flush(): Generator<Uint8Array, void, void> {
    if (this.used === 0) return;
    const full = this.buffer.subarray(0, this.used);
    this.used = 0;
    yield full;
  }
}

/** Where a section lies in a snapshot file (byte offsets from its start), and its own buffer's size if it grows. */
export interface SectionPlacement {
  name: string;
  from: number;
  to: number;
  /** Set for a section worth reading into a buffer of this many bytes (`SnapshotBytes.apart`). */
  roomBytes?: number;
  /** A section a loader with `SnapshotBytes.readAt` may leave unread. */
  cold?: true;
}

/**
 * A snapshot's bytes as a loader read them: the file in `bytes`, except that the sections in `apart` were read
 * into buffers of their own (`SectionPlacement.roomBytes` long, the section's bytes first), which the index adopts
 * and grows in place; their range in `bytes` is never read.
 */
export interface SnapshotBytes {
  bytes: Uint8Array;
  apart?: ReadonlyMap<string, Uint8Array>;
  /**
   * Given by a loader that left the `cold` sections of `bytes` unread: fills `into` with the file's bytes from
   * `from` on (synchronously: the engine reads them during a search), for as long as the index reads them.
   */
  readAt?: (from: number, into: Uint8Array) => void;
}

/** A cold section left in the file: `read` fills `into` from a byte offset in the section. */
export interface ColdSection {
  byteLength: number;
  read(offset: number, into: Uint8Array): void;
}

/** Growing sections smaller than this are simply copied when they grow: a buffer of their own is not worth it. */
const APART_MIN_BYTES = 1 << 20;

/**
 * The layout of a snapshot from its first bytes, or how many first bytes it needs when `head` is too short to
 * hold the header (a loader reads that many and asks again). Throws `INVALID_SNAPSHOT` as the reader would.
 * `apartMinBytes`: the smallest growing section worth a buffer of its own.
 */
export function snapshotLayout(head: Uint8Array, { apartMinBytes = APART_MIN_BYTES } = {}): { sections: SectionPlacement[] } | { needBytes: number } {
  if (head.byteLength < 16) return { needBytes: 16 };
  const { start, sections } = parseHeader(head);
  if (sections === undefined) return { needBytes: start };
  return {
    sections: sections.map((section) => {
      const from = start + section.offset;
      const placement: SectionPlacement = { name: section.name, from, to: from + section.length };
      if (section.grows === true && section.kind === 'u32' && section.length >= apartMinBytes) placement.roomBytes = roomToGrow(section.length / 4) * 4;
      if (section.cold === true) placement.cold = true;
      return placement;
    }),
  };
}

/** Where the payloads start, and the section table if `bytes` hold the whole header. */
function parseHeader(bytes: Uint8Array): { start: number; sections?: SectionEntry[] } {
  if (!(bytes instanceof Uint8Array) || bytes.byteLength < 16) throw createEngineError('INVALID_SNAPSHOT', 'too short');
  if (decoder.decode(bytes.subarray(0, 8)) !== MAGIC) throw createEngineError('INVALID_SNAPSHOT', 'not a Vitrine snapshot');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== FORMAT_VERSION) throw createEngineError('INVALID_SNAPSHOT', `format version ${version} is not supported`);
  const headerLength = view.getUint32(12, true);
  const start = align8(16 + headerLength);
  if (16 + headerLength > bytes.byteLength) return { start };
  let header: { sections?: SectionEntry[] };
  try {
    header = JSON.parse(decoder.decode(bytes.subarray(16, 16 + headerLength)));
  } catch {
    throw createEngineError('INVALID_SNAPSHOT', 'corrupt header');
  }
  return { start, sections: header.sections ?? [] };
}

export class SnapshotReader {
  private readonly sections = new Map<string, SectionEntry>();
  private readonly start: number;
  private readonly bytes: Uint8Array;
  private readonly apart: ReadonlyMap<string, Uint8Array>;
  private readonly readAt: SnapshotBytes['readAt'];

  constructor(snapshot: Uint8Array | SnapshotBytes) {
    const { bytes, apart = new Map(), readAt } = snapshot instanceof Uint8Array ? { bytes: snapshot } : snapshot;
    this.bytes = bytes;
    this.apart = apart;
    this.readAt = readAt;
    const { start, sections } = parseHeader(bytes);
    if (sections === undefined) throw createEngineError('INVALID_SNAPSHOT', 'truncated header');
    this.start = start;
    for (const section of sections) {
      if (this.start + section.offset + section.length > bytes.byteLength) throw createEngineError('INVALID_SNAPSHOT', `section ${section.name} is truncated`);
      const own = apart.get(section.name);
      if (own !== undefined && (own.byteLength < section.length || own.byteOffset % 8 !== 0 || own.byteLength % 4 !== 0)) {
        throw createEngineError('INVALID_SNAPSHOT', `section ${section.name} was read apart into too small a buffer`);
      }
      this.sections.set(section.name, section);
    }
  }

  has(name: string): boolean {
    return this.sections.has(name);
  }

  json<T>(name: string): T {
    const raw = this.raw(name, 'json');
    try {
      return JSON.parse(decoder.decode(raw)) as T;
    } catch {
      throw createEngineError('INVALID_SNAPSHOT', `section ${name} is corrupt`);
    }
  }

  /** A view into the snapshot bytes when they are aligned (no copy), else an aligned copy. */
  u32(name: string): Uint32Array {
    const raw = this.raw(name, 'u32');
    if (raw.byteOffset % 4 === 0) return new Uint32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
    return new Uint32Array(raw.slice().buffer);
  }

  /**
   * A u32 section as an array writes extend: in place if the loader read it apart with room to spare, else a
   * view of the snapshot bytes that its first push copies.
   */
  growableU32(name: string): GrowableUint32 {
    const values = this.u32(name);
    const own = this.apart.get(name);
    if (own === undefined) return GrowableUint32.wrap(values);
    return GrowableUint32.adopt(new Uint32Array(own.buffer, own.byteOffset, own.byteLength / 4), values.length);
  }

  /** A cold section the loader left in the file, or null (not cold, or read with the rest: `u32` views it). */
  cold(name: string): ColdSection | null {
    const section = this.sections.get(name);
    const readAt = this.readAt;
    if (section?.cold !== true || section.kind !== 'u32' || readAt === undefined || this.apart.has(name)) return null;
    const from = this.start + section.offset;
    return {
      byteLength: section.length,
      read: (offset, into) => {
        if (offset < 0 || offset + into.byteLength > section.length) throw new Error(`section ${name}: bytes ${offset}+${into.byteLength} read past its end`);
        readAt(from + offset, into);
      },
    };
  }

  f64(name: string): Float64Array {
    const raw = this.raw(name, 'f64');
    if (raw.byteOffset % 8 === 0) return new Float64Array(raw.buffer, raw.byteOffset, raw.byteLength / 8);
    return new Float64Array(raw.slice().buffer);
  }

  private raw(name: string, kind: Kind): Uint8Array {
    const section = this.sections.get(name);
    if (section === undefined || section.kind !== kind) throw createEngineError('INVALID_SNAPSHOT', `missing section ${name}`);
    const own = this.apart.get(name);
    if (own !== undefined) return own.subarray(0, section.length);
    const from = this.start + section.offset;
    return this.bytes.subarray(from, from + section.length);
  }
}

function align8(n: number): number {
  return (n + 7) & ~7;
}
