import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GrowableUint32 } from '../structures/growable.ts';
import { ForwardIndex, SOLE_BIT, WIDE_INFO, infoReader } from './forward-index.ts';

/** Small pages, so that a few hundred tokens cross many of them and reach the largest size. */
const PAGES = { min: 4, max: 16 };

type Doc = Array<[term: number, info: number]>;

/** Mostly term ids and infos that fit a narrow page, now and then one that widens it. */
const termArbitrary = fc.oneof({ weight: 12, arbitrary: fc.nat(1000) }, { weight: 1, arbitrary: fc.integer({ min: 65_530, max: 70_000 }) });
const packed = (slot: number, position: number) => ((slot << 19) | position) >>> 0;
const infoArbitrary = fc.oneof(
  { weight: 12, arbitrary: fc.tuple(fc.nat(31), fc.nat(1023)).map(([slot, position]) => packed(slot, position)) },
  { weight: 1, arbitrary: fc.tuple(fc.nat(8191), fc.nat(0x3ffff)).map(([slot, position]) => packed(slot, position)) },
);
const tokenArbitrary = fc.tuple(termArbitrary, infoArbitrary);
const docArbitrary: fc.Arbitrary<Doc> = fc.oneof(
  { weight: 4, arbitrary: fc.array(tokenArbitrary, { maxLength: 12 }) },
  // Longer than a full page: a page of its own.
  { weight: 1, arbitrary: fc.array(tokenArbitrary, { minLength: 17, maxLength: 60 }) },
);

/** Writes `doc` the way the text index does: tokens pushed one by one, the first one's info changed after. */
function write(index: ForwardIndex, doc: Doc, flagFirst: boolean): Doc {
  const first = index.length;
  for (const [term, info] of doc) index.push(term, info);
  if (flagFirst && doc.length > 0) index.setOpenInfo(first, (index.openInfo(first) | SOLE_BIT) >>> 0);
  index.endDocument();
  return doc.map(([term, info], k) => [term, k === 0 && flagFirst ? (info | SOLE_BIT) >>> 0 : info]);
}

/** The words of a snapshot's pieces, each read before the next is asked for (a piece may reuse the last one's buffer). */
function words(pieces: Iterable<Uint8Array>): number[] {
  const out: number[] = [];
  for (const piece of pieces) out.push(...new Uint32Array(piece.slice().buffer));
  return out;
}

function flat(index: ForwardIndex): { terms: number[]; infos: number[] } {
  return { terms: words(index.termPieces(index.length)), infos: words(index.infoPieces(index.length)) };
}

function expectSame(index: ForwardIndex, model: Doc[]): void {
  expect(index.documentCount).toBe(model.length);
  model.forEach((doc, d) => {
    const { terms, infos } = index.tokensOf(d);
    expect([...terms]).toEqual(doc.map(([term]) => term));
    expect([...infos]).toEqual(doc.map(([, info]) => info));
  });
  const all = model.flat();
  expect(flat(index)).toEqual({ terms: all.map(([term]) => term), infos: all.map(([, info]) => info) });
  expect(index.docStart.data[model.length]).toBe(all.length);
}

describe('ForwardIndex', () => {
  it('reads back every document as written, across pages and restores', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(docArbitrary, fc.boolean(), fc.constantFrom('none', 'restore', 'restore with room')), { maxLength: 60 }),
        (writes) => {
          let index = new ForwardIndex(PAGES);
          const model: Doc[] = [];
          for (const [doc, flagFirst, then] of writes) {
            model.push(write(index, doc, flagFirst));
            if (then === 'none') continue;
            // As a snapshot stores it (the pages end to end) and a load reads it back: in the snapshot's bytes
            // (no room: the next push starts a page) or apart with room to grow in place.
            const { terms, infos } = flat(index);
            const room = then === 'restore with room' ? 5 : 0;
            const grown = (values: number[]): GrowableUint32 => {
              const data = new Uint32Array(values.length + room);
              data.set(values);
              return room > 0 ? GrowableUint32.adopt(data, values.length) : GrowableUint32.wrap(data);
            };
            const saved = new Uint32Array(terms);
            index = ForwardIndex.restore(grown(terms), grown(infos), GrowableUint32.from(index.docStart.view()), PAGES);
            expectSame(index, model);
            if (room === 0) {
              // Writes never land in a wrapped snapshot view.
              model.push(write(index, [[1, 2]], true));
              expect(new Uint32Array(flat(index).terms.slice(0, saved.length))).toEqual(saved);
            }
          }
          expectSame(index, model);
          // A document never straddles two pages.
          for (let d = 0; d < model.length; d++) {
            const page = index.docPage.data[d];
            const end = page + 1 < index.pageBase.length ? index.pageBase[page + 1] : index.length;
            expect(index.docStart.data[d]).toBeGreaterThanOrEqual(index.pageBase[page]);
            expect(index.docStart.data[d + 1]).toBeLessThanOrEqual(end);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives a snapshot what it described, not tokens written after', () => {
    const index = new ForwardIndex(PAGES);
    write(index, [[1, 1], [2, 2], [3, 3]], false);
    const described = index.length;
    for (let d = 0; d < 10; d++) write(index, [[9, 9], [8, 8]], false);
    const terms = words(index.termPieces(described));
    expect(terms).toEqual([1, 2, 3]);
  });

  it('keeps pages narrow (2 bytes a term id and an info) while their tokens fit, and widens one that needs it', () => {
    const index = new ForwardIndex(PAGES);
    write(index, [[1, packed(3, 7)], [2, packed(31, 1023)]], true);
    expect(index.termPages[0]).toBeInstanceOf(Uint16Array);
    expect(index.infoPages[0]).toBeInstanceOf(Uint16Array);
    expect(infoReader(index.infoPages[0])).toBe(WIDE_INFO);
    // A term id past 16 bits widens the terms only; a slot past 31 (or a position past 1,023) the infos only.
    write(index, [[70_000, packed(0, 0)]], false);
    expect(index.termPages[0]).toBeInstanceOf(Uint32Array);
    expect(index.infoPages[0]).toBeInstanceOf(Uint16Array);
    write(index, [[3, packed(32, 0)]], false);
    expect(index.infoPages[0]).toBeInstanceOf(Uint32Array);
    expect(infoReader(index.infoPages[0])).toBeNull();
    expectSame(index, [
      [[1, (packed(3, 7) | SOLE_BIT) >>> 0], [2, packed(31, 1023)]],
      [[70_000, packed(0, 0)]],
      [[3, packed(32, 0)]],
    ]);
    // The next page starts narrow again.
    for (let d = 0; d < 6; d++) write(index, [[4, packed(1, d)]], false);
    const last = index.termPages.length - 1;
    expect(last).toBeGreaterThan(0);
    expect(index.termPages[last]).toBeInstanceOf(Uint16Array);
    expect(index.infoPages[last]).toBeInstanceOf(Uint16Array);
  });

  it('keeps full pages where they are while the index grows', () => {
    const index = new ForwardIndex(PAGES);
    for (let d = 0; d < 40; d++) write(index, [[d, 0], [d, 1], [d, 2]], false);
    const first = index.termPages[0];
    for (let d = 0; d < 40; d++) write(index, [[d, 0], [d, 1], [d, 2]], false);
    expect(index.termPages[0]).toBe(first);
    expect(Math.max(...index.termPages.map((page) => page.length))).toBe(PAGES.max);
  });
});
