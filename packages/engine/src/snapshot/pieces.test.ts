/**
 * Snapshots in pieces (`SnapshotWriter.pieces`, `SearchIndex.saveSnapshotInPieces`): the pieces, however the
 * sections were given (whole arrays, many small pieces, pieces larger than a step), join into the snapshot
 * `finish()` gives; an index searched between pieces gives a snapshot that loads and answers as it does; one
 * written between pieces refuses to go on.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateProducts, demoSettings } from '@vitrine/demo';
import { SearchIndex, loadSnapshot } from '../index.ts';
import { PIECE_BYTES, SnapshotReader, SnapshotWriter } from './format.ts';

/** Joins pieces as a file would receive them (each is valid only until the next is asked for). */
function join(pieces: Iterable<Uint8Array>): { bytes: Uint8Array; sizes: number[] } {
  const copies: Uint8Array[] = [];
  for (const piece of pieces) copies.push(piece.slice());
  const bytes = new Uint8Array(copies.reduce((sum, piece) => sum + piece.byteLength, 0));
  let at = 0;
  for (const piece of copies) {
    bytes.set(piece, at);
    at += piece.byteLength;
  }
  return { bytes, sizes: copies.map((piece) => piece.byteLength) };
}

/** Equal bytes (a deep comparison of megabytes, element by element, is slow). */
function same(a: ArrayBufferView, b: ArrayBufferView): boolean {
  return Buffer.compare(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), new Uint8Array(b.buffer, b.byteOffset, b.byteLength)) === 0;
}

function words(length: number, seed: number): Uint32Array {
  return Uint32Array.from({ length }, (_, i) => (i * 2654435761 + seed) >>> 0);
}

/** A section given as pieces of the given byte sizes (multiples of 4), cut from `values`. */
function* cut(values: Uint32Array, sizes: number[]): Generator<Uint8Array, void, void> {
  const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  let at = 0;
  for (const size of sizes) {
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

describe('snapshots in pieces', () => {
  it('joins pieces of any size into the sections given, zero-padded', () => {
    const w = new SnapshotWriter();
    // Pieces around the step size: gathered, split across two steps, and passed through whole.
    const sizes = [12, 700_000, 700_000, 1_200_000, 3 * PIECE_BYTES + 8, 4];
    const large = words(sizes.reduce((a, b) => a + b) / 4, 7);
    w.json('meta', { hello: 'world' });
    w.u32Pieces('large', large.byteLength + 8, () => cut(large, sizes));
    const plain = words(1000, 3);
    w.u32('plain', plain);
    const { bytes, sizes: pieceSizes } = join(w.pieces());
    expect(same(bytes, w.finish())).toBe(true);
    expect(Math.max(...pieceSizes)).toBeLessThanOrEqual(PIECE_BYTES);
    const r = new SnapshotReader(bytes);
    expect(r.json('meta')).toEqual({ hello: 'world' });
    expect(same(r.u32('large').subarray(0, large.length), large)).toBe(true);
    expect([...r.u32('large').subarray(large.length)]).toEqual([0, 0]);
    expect(r.u32('plain')).toEqual(plain);
  });

  it('keeps every section whatever its pieces (property)', () => {
    const section = fc.record({
      length: fc.nat({ max: 400 }),
      seed: fc.nat(),
      extraWords: fc.nat({ max: 3 }),
      cuts: fc.array(fc.nat({ max: 50 }), { maxLength: 8 }),
    });
    fc.assert(
      fc.property(fc.array(section, { maxLength: 6 }), (sections) => {
        const w = new SnapshotWriter();
        const given = sections.map(({ length, seed }) => words(length, seed));
        sections.forEach(({ extraWords, cuts }, i) => {
          const values = given[i];
          // Cut points in words, sorted, within the section; the rest is one last piece.
          const points = [...new Set(cuts.map((c) => Math.min(c, values.length)))].sort((a, b) => a - b);
          const sizes = [...points, values.length].map((p, k, all) => (p - (k === 0 ? 0 : all[k - 1])) * 4);
          w.u32Pieces(`s${i}`, (values.length + extraWords) * 4, () => cut(values, sizes));
        });
        const r = new SnapshotReader(join(w.pieces()).bytes);
        given.forEach((values, i) => {
          const read = r.u32(`s${i}`);
          expect(read.length).toBe(values.length + sections[i].extraWords);
          expect(read.subarray(0, values.length)).toEqual(values);
        });
      }),
    );
  });

  it('refuses a section given more bytes than it declared', () => {
    const w = new SnapshotWriter();
    w.u32Pieces('short', 4, () => cut(words(2, 1), [8]));
    expect(() => w.finish()).toThrow(/8 bytes for 4/);
  });

  it('gives a snapshot that answers as the index, searched between pieces', () => {
    const index = new SearchIndex(demoSettings);
    index.saveObjects([...generateProducts(6000, 11)]);
    // Records written since the import sit apart from it: the record bytes come in many runs.
    for (let i = 0; i < 300; i++) index.saveObjects([{ ...index.getObject(String(i * 7 + 1))!, popularity: i }]);
    index.deleteObjects(['1', '2', '3']);
    const queries = [{ query: 'lamp', facets: ['brand'] }, { query: 'oak tab', filters: 'price < 200' }, { query: '', page: 2 }];
    let searches = 0;
    let pauses = 0;
    const pieces = (function* () {
      for (const piece of index.saveSnapshotInPieces()) {
        if (piece.byteLength === 0) pauses++;
        yield piece;
        index.search(queries[searches++ % queries.length]);
      }
    })();
    const { bytes, sizes } = join(pieces);
    expect(sizes.filter((size) => size > 0).length).toBeGreaterThan(2);
    expect(pauses).toBeGreaterThan(2);
    expect(same(bytes, index.saveSnapshot())).toBe(true);
    const loaded = loadSnapshot(bytes);
    expect(loaded.size).toBe(index.size);
    for (const params of queries) {
      const { processingTimeMS: _a, ...expected } = index.search(params);
      const { processingTimeMS: _b, ...actual } = loaded.search(params);
      expect(actual).toEqual(expected);
    }
  });

  it('keeps a running compaction where it is while giving pieces, and lets searches advance it after', () => {
    const index = new SearchIndex(demoSettings);
    const internals = index as unknown as { compactionPolicy: { minTombstones: number; perWrite: number; perSearch: number }; compactions: number };
    Object.assign(internals.compactionPolicy, { minTombstones: 3, perWrite: 1, perSearch: 1 });
    index.saveObjects([...generateProducts(300, 4)]);
    // Tombstones outnumbering live records (the 151st deletion) start a compaction, advanced one record per
    // record written and per search: 148 of the 149 live records are left to copy.
    index.deleteObjects(Array.from({ length: 150 }, (_, i) => String(i + 1)));
    index.deleteObjects(['151']);
    expect((index as unknown as { compaction: unknown }).compaction).not.toBeNull();
    const search = (): number => index.search({ query: '', hitsPerPage: 0 }).nbHits;
    // The searches after any one piece would finish the compaction and swap the store.
    const { bytes } = join(
      (function* () {
        for (const piece of index.saveSnapshotInPieces()) {
          yield piece;
          for (let i = 0; i < 150; i++) expect(search()).toBe(149);
        }
      })(),
    );
    expect(internals.compactions).toBe(0);
    expect(loadSnapshot(bytes).search({ query: '', hitsPerPage: 0 }).nbHits).toBe(149);
    for (let i = 0; i < 150; i++) search();
    expect(internals.compactions).toBe(1);
  });

  it('refuses to go on once the index is written between two pieces', () => {
    const index = new SearchIndex(demoSettings);
    index.saveObjects([...generateProducts(200, 2)]);
    const pieces = index.saveSnapshotInPieces();
    pieces.next();
    index.saveObjects([{ objectID: 'late', name: 'Late Lamp' }]);
    expect(() => pieces.next()).toThrow(/written to while a snapshot/);
  });
});
