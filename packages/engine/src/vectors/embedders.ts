/**
 * The `embedders` setting as the engine reads it: each embedder's name, source and dimensions. What a `rest`
 * embedder calls and how (url, templates, headers, key), and the model a `huggingFace` one runs, are the
 * server's: the engine never leaves its thread, so it only checks that those fields are there to be checked by
 * the server, and stores vectors of the given size.
 */
import type { IndexRecord } from '@vitrine/protocol';
import { createEngineError } from '../errors.ts';

export type EmbedderSource = 'userProvided' | 'rest' | 'huggingFace';

export interface EmbedderSpec {
  name: string;
  source: EmbedderSource;
  dimensions: number;
}

/** Dimensions of the largest vector accepted (OpenAI's large models have 3,072). */
export const MAX_DIMENSIONS = 4096;
/** Embedders per index: each holds a vector per record and is scanned by the searches that name it. */
export const MAX_EMBEDDERS = 8;
/** Names: letters, digits, `_` and `-`, so that `_vectors.<name>` is a plain attribute path. */
const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const SOURCES = new Set<string>(['userProvided', 'rest', 'huggingFace']);

/** The embedders of `value` (the setting), validated; [] when not set. Throws `INVALID_SETTING`. */
export function parseEmbedders(value: unknown): EmbedderSpec[] {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'object' || Array.isArray(value)) throw createEngineError('INVALID_SETTING', 'embedders', 'expected an object of embedders by name');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_EMBEDDERS) throw createEngineError('INVALID_SETTING', 'embedders', `at most ${MAX_EMBEDDERS} embedders`);
  return entries.map(([name, raw]) => {
    const where = `embedders.${name}`;
    if (!NAME.test(name)) throw createEngineError('INVALID_SETTING', 'embedders', `"${name}" is not a valid name (letters, digits, _ and -, at most 64)`);
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw createEngineError('INVALID_SETTING', where, 'expected an object');
    const { source, dimensions } = raw as { source?: unknown; dimensions?: unknown };
    if (typeof source !== 'string' || !SOURCES.has(source)) throw createEngineError('INVALID_SETTING', `${where}.source`, 'expected "userProvided", "rest" or "huggingFace"');
    if (typeof dimensions !== 'number' || !Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_DIMENSIONS) {
      throw createEngineError('INVALID_SETTING', `${where}.dimensions`, `expected an integer from 1 to ${MAX_DIMENSIONS}`);
    }
    return { name, source: source as EmbedderSource, dimensions };
  });
}

/** Whether two lists describe the same vectors (same names, sources and dimensions): vectors survive a change that keeps them. */
export function sameVectors(a: EmbedderSpec, b: EmbedderSpec | undefined): boolean {
  return b !== undefined && a.source === b.source && a.dimensions === b.dimensions;
}

/**
 * A vector given by a caller (a record's `_vectors.<name>`, a query's `vector`), checked: exactly `dimensions`
 * finite numbers, not all zero (a zero vector has no direction: its cosine to anything is undefined). Returns it
 * as float32, the precision vectors are kept and compared in. `where` names it in the message.
 */
export function readVector(value: unknown, dimensions: number, where: string): Float32Array {
  if (!Array.isArray(value)) throw createEngineError('INVALID_PARAMETER', where, `expected an array of ${dimensions} numbers`);
  if (value.length !== dimensions) throw createEngineError('INVALID_PARAMETER', where, `expected ${dimensions} numbers, got ${value.length}`);
  const vector = new Float32Array(dimensions);
  let nonZero = false;
  for (let i = 0; i < dimensions; i++) {
    const x = value[i];
    if (typeof x !== 'number' || !Number.isFinite(x)) throw createEngineError('INVALID_PARAMETER', where, `element ${i} is not a finite number (${JSON.stringify(x) ?? String(x)})`);
    const single = Math.fround(x);
    if (!Number.isFinite(single)) throw createEngineError('INVALID_PARAMETER', where, `element ${i} is out of the range of 32-bit floats`);
    vector[i] = single;
    if (single !== 0) nonZero = true;
  }
  if (!nonZero) throw createEngineError('INVALID_PARAMETER', where, 'a vector of zeros has no direction');
  return vector;
}

/** A record's vectors by embedder (null: it explicitly has none for that embedder), and the record without them. */
export interface SplitRecord {
  record: IndexRecord;
  vectors: Map<string, Float32Array | null> | null;
}

/**
 * Takes `_vectors` out of a record, checked against the index's embedders: vectors are kept apart, compactly
 * (`vector-column.ts`), never as JSON in the record's bytes nor as searchable text. Throws `INVALID_RECORD`.
 */
export function splitVectors(record: IndexRecord, embedders: readonly EmbedderSpec[], position: number): SplitRecord {
  if (!Object.prototype.hasOwnProperty.call(record, '_vectors')) return { record, vectors: null };
  const { _vectors: raw, ...rest } = record;
  const read = readRecordVectors(raw, embedders);
  if (typeof read === 'string') throw createEngineError('INVALID_RECORD', `record ${position} (objectID ${JSON.stringify(record.objectID)}): ${read}`);
  return { record: rest as IndexRecord, vectors: read };
}

/**
 * A record's `_vectors` value read for these embedders (null: none), or what is wrong with it: the server checks
 * a batch with it before logging the batch, the engine when applying it.
 */
export function readRecordVectors(raw: unknown, embedders: readonly EmbedderSpec[]): Map<string, Float32Array | null> | string {
  if (raw === null) return new Map();
  if (typeof raw !== 'object' || Array.isArray(raw)) return '_vectors must be an object of vectors by embedder name';
  if (embedders.length === 0) return '_vectors given, but the index has no embedders (set them in the settings first)';
  const vectors = new Map<string, Float32Array | null>();
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    const embedder = embedders.find((e) => e.name === name);
    if (embedder === undefined) return `_vectors.${name}: no embedder of this name (the index has ${embedders.map((e) => e.name).join(', ')})`;
    if (value === null) {
      vectors.set(name, null);
      continue;
    }
    try {
      vectors.set(name, readVector(value, embedder.dimensions, `_vectors.${name}`));
    } catch (error) {
      return (error as Error).message.replace(/^Invalid value for "([^"]*)": /, '$1: ');
    }
  }
  return vectors;
}
