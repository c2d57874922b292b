/**
 * Reading a snapshot file (`readSnapshotFile`): the growing sections each into a buffer of their own with room,
 * the rest into one buffer, whatever the header's size against the first read; the index loaded from it answers
 * as one loaded from the file's plain bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoSettings, generateProducts } from '@vitrine/demo';
import { SearchIndex, loadSnapshot } from '@vitrine/engine';
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

  it('refuses a file that is not a snapshot, as the engine does', async () => {
    const junk = join(dir, 'junk.bin');
    writeFileSync(junk, 'not a snapshot at all, just text');
    await expect(readSnapshotFile(junk).then(loadSnapshot)).rejects.toThrow(/not a Vitrine snapshot/);
    const empty = join(dir, 'empty.bin');
    writeFileSync(empty, '');
    await expect(readSnapshotFile(empty).then(loadSnapshot)).rejects.toThrow(/too short/);
  });
});
