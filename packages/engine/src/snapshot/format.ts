/**
 * The snapshot container: named sections of JSON or typed arrays, each 8-byte aligned, after a small header.
 *
 *   "VITRSNAP" | u32 format version | u32 header length | header (JSON: section table) | padding | payloads
 *
 * Typed arrays are stored raw (little-endian, as every platform Node runs on), so loading a million documents'
 * postings and forward index is a few memory copies rather than any parsing.
 */
import { createEngineError } from '../errors.ts';

const MAGIC = 'VITRSNAP';
export const FORMAT_VERSION = 1;

type Kind = 'json' | 'u32' | 'f64';
interface SectionEntry {
  name: string;
  kind: Kind;
  offset: number;
  length: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A section's payload: bytes to copy, or a function writing them straight into the snapshot (`u32Filled`). */
interface Part {
  name: string;
  kind: Kind;
  byteLength: number;
  bytes?: Uint8Array;
  fill?: (target: Uint8Array) => void;
}

export class SnapshotWriter {
  private readonly parts: Part[] = [];

  json(name: string, value: unknown): void {
    this.bytes(name, 'json', encoder.encode(JSON.stringify(value)));
  }

  u32(name: string, values: Uint32Array): void {
    this.bytes(name, 'u32', new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  }

  f64(name: string, values: Float64Array): void {
    this.bytes(name, 'f64', new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  }

  /**
   * A u32 section of `byteLength` bytes (a multiple of 4) that `fill` writes straight into the snapshot, zeroed
   * beforehand: a large payload assembled from pieces (the records) is copied once, not into a buffer of its
   * own first. `fill` runs in `finish`, which the caller runs in the same synchronous call, on the same state.
   */
  u32Filled(name: string, byteLength: number, fill: (target: Uint8Array) => void): void {
    if (byteLength % 4 !== 0) throw new Error(`section ${name}: ${byteLength} bytes is not whole 32-bit words`);
    this.parts.push({ name, kind: 'u32', byteLength, fill });
  }

  private bytes(name: string, kind: Kind, bytes: Uint8Array): void {
    this.parts.push({ name, kind, byteLength: bytes.byteLength, bytes });
  }

  finish(): Uint8Array {
    const sections: SectionEntry[] = [];
    let offset = 0;
    for (const part of this.parts) {
      sections.push({ name: part.name, kind: part.kind, offset, length: part.byteLength });
      offset = align8(offset + part.byteLength);
    }
    const header = encoder.encode(JSON.stringify({ sections }));
    const start = align8(16 + header.byteLength);
    const out = new Uint8Array(start + offset);
    out.set(encoder.encode(MAGIC), 0);
    const view = new DataView(out.buffer);
    view.setUint32(8, FORMAT_VERSION, true);
    view.setUint32(12, header.byteLength, true);
    out.set(header, 16);
    this.parts.forEach((part, i) => {
      const from = start + sections[i].offset;
      if (part.bytes !== undefined) out.set(part.bytes, from);
      else part.fill!(out.subarray(from, from + part.byteLength));
    });
    return out;
  }
}

export class SnapshotReader {
  private readonly sections = new Map<string, SectionEntry>();
  private readonly start: number;

  constructor(private readonly bytes: Uint8Array) {
    if (!(bytes instanceof Uint8Array) || bytes.byteLength < 16) throw createEngineError('INVALID_SNAPSHOT', 'too short');
    if (decoder.decode(bytes.subarray(0, 8)) !== MAGIC) throw createEngineError('INVALID_SNAPSHOT', 'not a Vitrine snapshot');
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const version = view.getUint32(8, true);
    if (version !== FORMAT_VERSION) throw createEngineError('INVALID_SNAPSHOT', `format version ${version} is not supported`);
    const headerLength = view.getUint32(12, true);
    if (16 + headerLength > bytes.byteLength) throw createEngineError('INVALID_SNAPSHOT', 'truncated header');
    let header: { sections?: SectionEntry[] };
    try {
      header = JSON.parse(decoder.decode(bytes.subarray(16, 16 + headerLength)));
    } catch {
      throw createEngineError('INVALID_SNAPSHOT', 'corrupt header');
    }
    this.start = align8(16 + headerLength);
    for (const section of header.sections ?? []) {
      if (this.start + section.offset + section.length > bytes.byteLength) throw createEngineError('INVALID_SNAPSHOT', `section ${section.name} is truncated`);
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

  f64(name: string): Float64Array {
    const raw = this.raw(name, 'f64');
    if (raw.byteOffset % 8 === 0) return new Float64Array(raw.buffer, raw.byteOffset, raw.byteLength / 8);
    return new Float64Array(raw.slice().buffer);
  }

  private raw(name: string, kind: Kind): Uint8Array {
    const section = this.sections.get(name);
    if (section === undefined || section.kind !== kind) throw createEngineError('INVALID_SNAPSHOT', `missing section ${name}`);
    const from = this.start + section.offset;
    return this.bytes.subarray(from, from + section.length);
  }
}

function align8(n: number): number {
  return (n + 7) & ~7;
}
