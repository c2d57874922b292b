/**
 * Properties checked: however writes and groupings interleave (a search after every few records, as a live
 * shop sees it), each term's groups hold exactly its documents, each once, under its best attribute key — the
 * same as grouping everything at the end — and the tail's levels stay few.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TextIndex } from './text-index.ts';
import { asDocId } from '../structures/ids.ts';
import { parsePath } from './attributes.ts';
import { Bitset } from '../structures/bitset.ts';
import { SnapshotReader, SnapshotWriter } from '../snapshot/format.ts';

const WORDS = ['red', 'shoe', 'blue', 'shirt', 'wool', 'sock'];
const slots = [
  { attribute: 'name', path: parsePath('name'), rank: 0, ordered: true },
  { attribute: 'tags', path: parsePath('tags'), rank: 1, ordered: false },
];

function snapshotGroups(text: TextIndex): Map<string, Array<[number, number]>> {
  const result = new Map<string, Array<[number, number]>>();
  text.dict.terms.forEach((term, termId) => {
    const pairs: Array<[number, number]> = [];
    for (const grouped of text.groups(termId)) {
      grouped.keys.forEach((key, g) => {
        for (let k = grouped.starts[g]; k < grouped.starts[g + 1]; k++) pairs.push([grouped.docs[k], key]);
      });
    }
    result.set(term, pairs.sort((a, b) => a[0] - b[0]));
  });
  return result;
}

describe('TextIndex tail levels', () => {
  it('match a single grouping whatever the interleaving of writes and searches', () => {
    const record = fc.record({ name: fc.array(fc.constantFrom(...WORDS), { maxLength: 5 }), tags: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }) });
    fc.assert(
      fc.property(fc.array(fc.tuple(record, fc.boolean()), { maxLength: 300 }), (writes) => {
        const live = new TextIndex(slots, '');
        const batch = new TextIndex(slots, '');
        writes.forEach(([fields, searchNow], doc) => {
          const value = { name: fields.name.join(' '), tags: fields.tags };
          live.add(asDocId(doc), value);
          batch.add(asDocId(doc), value);
          if (searchNow) live.settle();
        });
        expect(snapshotGroups(live)).toEqual(snapshotGroups(batch));
      }),
      { numRuns: 60 },
    );
  });

  it('keeps a handful of levels for a frequent term written a record at a time', () => {
    const text = new TextIndex(slots, '');
    for (let doc = 0; doc < 20_000; doc++) {
      text.add(asDocId(doc), { name: `shoe ${doc}`, tags: [] });
      text.settle();
    }
    const termId = text.dict.terms.indexOf('shoe');
    const groups = text.groups(termId);
    expect(groups.length).toBeLessThanOrEqual(16);
    expect(groups.reduce((sum, grouped) => sum + grouped.docs.length, 0)).toBe(20_000);
  });

  it('ORs in each term\'s documents, frequent terms through cached sets kept up to date across writes and merges', () => {
    // Past 4,096 documents, terms in 1/64 of them are served from cached bitsets that later writes extend in
    // place (or rebuild after a tail merge): every read must still equal the term's documents.
    type Step = { kind: 'add'; records: string[][] } | { kind: 'settle' } | { kind: 'group'; word: string } | { kind: 'read' };
    const step: fc.Arbitrary<Step> = fc.oneof(
      fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 900 }).map((records): Step => ({ kind: 'add', records })),
      fc.constant<Step>({ kind: 'settle' }),
      fc.constantFrom(...WORDS).map((word): Step => ({ kind: 'group', word })),
      fc.constant<Step>({ kind: 'read' }),
    );
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 25 }), fc.integer({ min: 0, max: 5 }), (steps, seedWord) => {
        const text = new TextIndex(slots, '');
        const model = new Map<string, number[]>(WORDS.map((word) => [word, []]));
        const add = (words: string[]): void => {
          const doc = text.documentCount;
          text.add(asDocId(doc), { name: words.join(' '), tags: [] });
          for (const word of new Set(words)) model.get(word)!.push(doc);
        };
        // A first bulk where one word is in every document and the others in some.
        for (let doc = 0; doc < 5000; doc++) add([WORDS[seedWord], WORDS[doc % WORDS.length], WORDS[(doc * 7) % WORDS.length]]);
        text.settle();
        const read = (): void => {
          for (const word of WORDS) {
            const termId = text.dict.idOf(word);
            const set = new Bitset(text.documentCount);
            if (termId !== undefined) text.orInto(termId, set);
            expect(set.toArray()).toEqual(model.get(word));
          }
        };
        read();
        for (const s of steps) {
          if (s.kind === 'add') s.records.forEach(add);
          else if (s.kind === 'settle') text.settle();
          else if (s.kind === 'group') {
            const termId = text.dict.idOf(s.word);
            if (termId !== undefined) text.groups(termId);
          } else read();
        }
        read();
      }),
      { numRuns: 25 },
    );
  });
});

describe('TextIndex whole-value documents', () => {
  /** Documents of each term where one of the record's values is that term alone, by brute force. */
  function soleOracle(records: Array<{ name: string; tags: string[] }>): Map<string, number[]> {
    const result = new Map<string, number[]>();
    records.forEach((record, doc) => {
      for (const value of [record.name, ...record.tags]) {
        const words = value.split(' ').filter((word) => word !== '');
        if (words.length !== 1) continue;
        const docs = result.get(words[0]) ?? [];
        if (docs[docs.length - 1] !== doc) docs.push(doc);
        result.set(words[0], docs);
      }
    });
    return result;
  }

  function soleSets(text: TextIndex, documents: number): Map<string, number[]> {
    const result = new Map<string, number[]>();
    text.dict.terms.forEach((term, termId) => {
      const set = new Bitset(documents);
      text.orSoleInto(termId, set);
      const docs: number[] = [];
      for (let doc = 0; doc < documents; doc++) if (set.has(doc)) docs.push(doc);
      if (docs.length > 0) result.set(term, docs);
    });
    return result;
  }

  it('match a brute-force scan, written one by one and read back from a snapshot, and go on growing after it', () => {
    const phrase = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((words) => words.join(' '));
    const record = fc.record({ name: phrase, tags: fc.array(fc.oneof(fc.constantFrom(...WORDS), phrase), { maxLength: 3 }) });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 80 }), fc.array(record, { maxLength: 20 }), (before, after) => {
        const text = new TextIndex(slots, '');
        before.forEach((fields, doc) => text.add(asDocId(doc), fields));
        expect(soleSets(text, before.length)).toEqual(soleOracle(before));
        const w = new SnapshotWriter();
        for (const _ of text.save(w));
        const loaded = TextIndex.load(new SnapshotReader(w.finish()), '', before.length);
        expect(soleSets(loaded, before.length)).toEqual(soleOracle(before));
        const all = [...before, ...after];
        after.forEach((fields, k) => loaded.add(asDocId(before.length + k), fields));
        expect(soleSets(loaded, all.length)).toEqual(soleOracle(all));
      }),
      { numRuns: 80 },
    );
  });
});
