/**
 * Reading a snapshot file (`readSnapshotFile`): the growing sections each into a buffer of their own with room,
 * the rest into one buffer, whatever the header's size against the first read; the index loaded from it answers
 * as one loaded from the file's plain bytes; the cold sections (float32 vectors) are read from the file when asked.
 */
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoSettings, generateProducts } from '@vitrine/demo';
import { SearchIndex, loadSnapshot, snapshotLayout } from '@vitrine/engine';
import type { IndexRecord } from '@vitrine/protocol';
import { removeDir, tempDir } from '../test-support.ts';
import { readSnapshotFile } from './snapshot.ts';

const dir = tempDir();
afterAll(() => removeDir(dir));

function snapshotFile(): string {
  const index = new SearchIndex(demoSettings);
  index.saveObjects([...generateProducts(600, 9)] as unknown as IndexRecord[]);
  const path = join(dir, 'index.bin');
  writeFileSync(path, index.saveSnapshot());
  return path;
}

const PARAMS = [
  { query: '', facets: ['*'], hitsPerPage: 5 },
  { query: 'phone', facets: ['brand'], hitsPerPage: 10 },
  { query: 'blue', numericFilters: ['price<100'], hitsPerPage: 10 },
];

function answers(index: SearchIndex): unknown[] {
  return PARAMS.map((params) => {
    const { processingTimeMS: _time, ...rest } = index.search(params);
    return rest;
  });
}

describe('reading a snapshot file', () => {
  const path = snapshotFile();
  const plain = loadSnapshot(readFileSync(path));

  it('reads the growing sections apart, with room, and loads an index answering as the plain bytes do', async () => {
    for (const headBytes of [1 << 16, 24]) {
      const read = await readSnapshotFile(path, { apartMinBytes: 0, headBytes });
      const apart = read.apart!;
      expect([...apart.keys()]).toEqual(expect.arrayContaining(['text.fwdTerms', 'text.fwdInfo', 'text.docStart', 'facet.0.offsets', 'records.blob']));
      for (const own of apart.values()) expect(own.byteOffset).toBe(0);
      const loaded = loadSnapshot(read) as SearchIndex;
      expect(answers(loaded)).toEqual(answers(plain as SearchIndex));
      loaded.saveObjects([{ objectID: 'new-one', name: 'Zanzibar lamp', brand: 'Acme', price: 12 }]);
      expect(loaded.search({ query: 'zanzibar' }).hits.map((hit) => hit.objectID)).toEqual(['new-one']);
    }
  });

  it('reads a small index whole by default but for its records (no growing section is worth a buffer of its own)', async () => {
    const read = await readSnapshotFile(path);
    // The records apart: their memory can be freed once they are read from a later snapshot.
    expect([...read.apart!.keys()]).toEqual(['records.blob']);
    const loaded = loadSnapshot(read) as SearchIndex;
    expect(answers(loaded)).toEqual(answers(plain as SearchIndex));
    expect([...loaded.records()]).toEqual([...(plain as SearchIndex).records()]);
  });

  it('leaves the float32 vectors in the file, read at an offset when a search or a record asks', async () => {
    const dims = 16;
    const index = new SearchIndex({ ...demoSettings, embedders: { e: { source: 'userProvided', dimensions: dims } } });
    const vector = (i: number) => Array.from({ length: dims }, (_, j) => Math.fround(Math.sin(i * 7 + j) + (j === i % dims ? 2 : 0)));
    index.saveObjects(Array.from({ length: 3000 }, (_, i) => ({ objectID: `v${i}`, name: `item ${i}`, _vectors: { e: vector(i) } })));
    const vectorsPath = join(dir, 'vectors.bin');
    writeFileSync(vectorsPath, index.saveSnapshot());
    const file = readFileSync(vectorsPath);
    const read = await readSnapshotFile(vectorsPath);
    expect(read.readAt).toBeTypeOf('function');
    const layout = snapshotLayout(file);
    const full = ('sections' in layout ? layout.sections : []).find((section) => section.name === 'vectors.0.full')!;
    expect(full.cold).toBe(true);
    expect(Buffer.compare(read.bytes.subarray(full.to), file.subarray(full.to))).toBe(0);
    const loaded = loadSnapshot(read) as SearchIndex;
    const plainVectors = loadSnapshot(file) as SearchIndex;
    const search = (engine: SearchIndex) => engine.search({ vector: vector(1234), hitsPerPage: 5, attributesToRetrieve: ['objectID'] }).hits.map((hit) => hit.objectID);
    expect(search(loaded)).toEqual(search(plainVectors));
    expect(search(loaded)[0]).toBe('v1234');
    expect(loaded.getObject('v77')).toEqual(plainVectors.getObject('v77'));
    const vectorOf = (engine: SearchIndex, id: string) => (engine.getObject(id) as unknown as { _vectors: { e: number[] } })._vectors.e;
    expect(vectorOf(loaded, 'v77').map(Math.fround)).toEqual(vector(77));
    // Read from the file when asked, not from what was loaded: the section overwritten, the record reads it.
    const fd = openSync(vectorsPath, 'r+');
    writeSync(fd, new Uint8Array(new Float32Array((full.to - full.from) / 4).fill(0.5).buffer), 0, full.to - full.from, full.from);
    closeSync(fd);
    expect(vectorOf(loaded, 'v77')).toEqual(new Array(dims).fill(0.5));
    expect(vectorOf(plainVectors, 'v77').map(Math.fround)).toEqual(vector(77));
  });

  it('refuses a file that is not a snapshot, as the engine does', async () => {
    const junk = join(dir, 'junk.bin');
    writeFileSync(junk, 'not a snapshot at all, just text');
    await expect(readSnapshotFile(junk).then(loadSnapshot)).rejects.toThrow(/not a Vitrine snapshot/);
    const empty = join(dir, 'empty.bin');
    writeFileSync(empty, '');
    await expect(readSnapshotFile(empty).then(loadSnapshot)).rejects.toThrow(/too short/);
  });
});
