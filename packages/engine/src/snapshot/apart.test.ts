/**
 * Growing sections read apart (`snapshotLayout`, `SnapshotBytes.apart`): an index loaded that way answers as one
 * loaded from the plain bytes, never reads the snapshot's copy of those sections, and extends them in place
 * (the room given is used) while answering, after writes, as an index built from the same records.
 */
import { describe, expect, it } from 'vitest';
import { demoSettings, generateProducts } from '@vitrine/demo';
import type { IndexRecord, SearchParams } from '@vitrine/protocol';
import { SearchIndex, loadSnapshot } from '../index.ts';
import { snapshotLayout } from './format.ts';
import type { SectionPlacement } from './format.ts';

const QUERIES: SearchParams[] = [
  { query: '', facets: ['*'], hitsPerPage: 5 },
  { query: 'phone', facets: ['brand', 'categories'], hitsPerPage: 10 },
  { query: 'wireles hedphones', hitsPerPage: 10 },
  { query: 'samsung', facetFilters: [['brand:Samsung']], numericFilters: ['price>=10'], hitsPerPage: 20 },
];

function answers(index: SearchIndex): unknown[] {
  return QUERIES.map((params) => {
    const { processingTimeMS: _time, ...rest } = index.search(params);
    return rest;
  });
}

/** Reads `bytes` as a loader would: growing sections into buffers with room, their range elsewhere garbage. */
function readApart(bytes: Uint8Array): { main: Uint8Array; apart: Map<string, Uint8Array>; placed: SectionPlacement[] } {
  const layout = snapshotLayout(bytes, { apartMinBytes: 0 });
  if (!('sections' in layout)) throw new Error('whole snapshot given: the header is there');
  const main = bytes.slice();
  const apart = new Map<string, Uint8Array>();
  const placed = layout.sections.filter((section) => section.roomBytes !== undefined);
  for (const section of placed) {
    const own = new Uint8Array(section.roomBytes!);
    own.set(bytes.subarray(section.from, section.to));
    apart.set(section.name, own);
    main.fill(0xab, section.from, section.to);
  }
  return { main, apart, placed };
}

describe('snapshot sections read apart', () => {
  const products = [...generateProducts(1200, 5)] as unknown as IndexRecord[];

  it('asks for the header it needs, then places the growing sections with room', () => {
    const index = new SearchIndex(demoSettings);
    index.saveObjects(products.slice(0, 200));
    const bytes = index.saveSnapshot();
    expect(snapshotLayout(bytes.subarray(0, 10))).toEqual({ needBytes: 16 });
    const short = snapshotLayout(bytes.subarray(0, 16));
    expect('needBytes' in short && short.needBytes > 16).toBe(true);
    const layout = snapshotLayout(bytes, { apartMinBytes: 0 });
    if (!('sections' in layout)) throw new Error('header expected whole');
    const growing = layout.sections.filter((section) => section.roomBytes !== undefined).map((section) => section.name);
    expect(growing).toEqual(expect.arrayContaining(['text.fwdTerms', 'text.fwdInfo', 'text.docStart']));
    expect(growing.some((name) => name.endsWith('.offsets') && name.startsWith('facet.'))).toBe(true);
    // The postings are rebuilt from, never extended: they are not worth a buffer of their own.
    expect(growing).not.toContain('text.docs');
    for (const section of layout.sections) {
      if (section.roomBytes !== undefined) expect(section.roomBytes).toBeGreaterThan(section.to - section.from);
    }
    // By default only sections of a megabyte or more: none in an index this small.
    const plain = snapshotLayout(bytes);
    expect('sections' in plain && plain.sections.every((section) => section.roomBytes === undefined)).toBe(true);
  });

  it('answers as the plain load, grows in place, and answers as a fresh build after writes', () => {
    const index = new SearchIndex(demoSettings);
    index.saveObjects(products.slice(0, 1000));
    const bytes = index.saveSnapshot();
    const { main, apart } = readApart(bytes);
    const loaded = loadSnapshot({ bytes: main, apart });
    expect(answers(loaded)).toEqual(answers(loadSnapshot(bytes)));

    const forward = apart.get('text.fwdTerms')!;
    const used = (snapshotLayout(bytes) as { sections: SectionPlacement[] }).sections.find((s) => s.name === 'text.fwdTerms')!;
    const filled = used.to - used.from;
    expect(forward.subarray(filled).some((byte) => byte !== 0)).toBe(false);
    const changed = products.slice(1000).concat(products.slice(0, 50).map((product) => ({ ...product, name: `${String(product.name)} renamed` })));
    loaded.saveObjects(changed);
    // The new records' words went into the room left after the snapshot's forward index.
    expect(forward.subarray(filled).some((byte) => byte !== 0)).toBe(true);

    const fresh = new SearchIndex(demoSettings);
    fresh.saveObjects(products.slice(0, 1000));
    fresh.saveObjects(changed);
    expect(answers(loaded)).toEqual(answers(fresh));
    expect(loaded.search({ query: 'renamed', hitsPerPage: 0 }).nbHits).toBe(50);
  });

  it('refuses a section read apart into a buffer smaller than the section', () => {
    const index = new SearchIndex(demoSettings);
    index.saveObjects(products.slice(0, 100));
    const bytes = index.saveSnapshot();
    const { main, apart } = readApart(bytes);
    apart.set('text.fwdTerms', new Uint8Array(8));
    expect(() => loadSnapshot({ bytes: main, apart })).toThrow(/too small/);
  });
});
