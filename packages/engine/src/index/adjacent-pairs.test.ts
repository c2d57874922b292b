/**
 * Properties checked: the filter never says "never side by side" for two terms that are (at distance 1 in
 * order, or at the same position in either order, as `proximityOf` measures them), however records were added
 * (at build, or by extending after later writes); and it does say so for most pairs that never are. Built in
 * steps (as a snapshot builds it when no search did), it is the same filter, bit for bit.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TextIndex, POSITION_MASK, SLOT_SHIFT } from './text-index.ts';
import { AdjacentPairs } from './adjacent-pairs.ts';
import { asDocId } from '../structures/ids.ts';
import { parsePath } from './attributes.ts';

const WORDS = ['red', 'shoe', 'blue', 'shirt', 'wool', 'sock', 'x', 'cm', '120', 'of'];
const slots = [
  { attribute: 'name', path: parsePath('name'), rank: 0, ordered: true },
  { attribute: 'tags', path: parsePath('tags'), rank: 1, ordered: false },
];

/** Every (first, second) the proximity scan would find at distance 1, by comparing all token pairs. */
function adjacentByBruteForce(text: TextIndex): Set<string> {
  const found = new Set<string>();
  for (let doc = 0; doc < text.documentCount; doc++) {
    const { terms, infos } = text.forward.tokensOf(doc);
    for (let k = 0; k < terms.length; k++) {
      for (let j = 0; j < terms.length; j++) {
        if (j === k || infos[j] >>> SLOT_SHIFT !== infos[k] >>> SLOT_SHIFT) continue;
        const distance = (infos[j] & POSITION_MASK) - (infos[k] & POSITION_MASK);
        if (distance === 0 || distance === 1) found.add(`${terms[k]},${terms[j]}`);
      }
    }
  }
  return found;
}

describe('AdjacentPairs', () => {
  it('holds every pair side by side, built at once or extended after writes', () => {
    const record = fc.record({ name: fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }), tags: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }) });
    fc.assert(
      fc.property(fc.array(fc.tuple(record, fc.boolean()), { maxLength: 120 }), (writes) => {
        const text = new TextIndex(slots, '');
        let extended: AdjacentPairs | null = null;
        writes.forEach(([fields, extendNow], doc) => {
          text.add(asDocId(doc), { name: fields.name.join(' '), tags: fields.tags });
          if (extendNow) extended = extended === null ? AdjacentPairs.build(text) : extended.extend(text);
        });
        const built = AdjacentPairs.build(text);
        const last = extended === null ? built : (extended as AdjacentPairs).extend(text);
        for (const pair of adjacentByBruteForce(text)) {
          const [first, second] = pair.split(',').map(Number);
          expect(built.mayFollow(first, second)).toBe(true);
          expect(last.mayFollow(first, second)).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('is the same filter built in steps of any size', () => {
    const record = fc.record({ name: fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }), tags: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }) });
    const bits = (pairs: AdjacentPairs): Int32Array => (pairs as unknown as { bits: Int32Array }).bits;
    fc.assert(
      fc.property(fc.array(record, { maxLength: 120 }), fc.integer({ min: 1, max: 40 }), (records, perStep) => {
        const text = new TextIndex(slots, '');
        records.forEach((fields, doc) => text.add(asDocId(doc), { name: fields.name.join(' '), tags: fields.tags }));
        const steps = AdjacentPairs.buildInSteps(text, perStep);
        let pauses = 0;
        let next = steps.next();
        for (; !next.done; next = steps.next()) pauses++;
        expect(pauses).toBe(Math.ceil(records.length / perStep));
        expect(bits(next.value)).toEqual(bits(AdjacentPairs.build(text)));
        // It covers every document: extending it after a write adds only the new one's pairs.
        text.add(asDocId(records.length), { name: 'wool sock', tags: [] });
        expect(bits(next.value.extend(text))).toEqual(bits(AdjacentPairs.build(text)));
      }),
      { numRuns: 150 },
    );
  });

  it('rules out pairs that never stand side by side', () => {
    const text = new TextIndex(slots, '');
    // Sizes, never "x" right before "cm": the bound that lets "x cm" skip the proximity scan.
    for (let doc = 0; doc < 2000; doc++) text.add(asDocId(doc), { name: `shelf ${doc} x ${doc % 90} cm`, tags: ['x', 'cm'] });
    const pairs = AdjacentPairs.build(text);
    const id = (term: string): number => text.dict.idOf(term)!;
    expect(pairs.mayFollow(id('shelf'), id('x'))).toBe(false);
    expect(pairs.mayFollow(id('x'), id('cm'))).toBe(false);
    expect(pairs.mayFollow(id('cm'), id('x'))).toBe(false);
    expect(pairs.mayFollow(id('x'), id('5'))).toBe(true);
    expect(pairs.mayFollow(id('5'), id('cm'))).toBe(true);
    // Term pairs that never occur: almost all are ruled out (a Bloom filter may let a few through).
    const ids = text.dict.terms.map((_, termId) => termId);
    let allowed = 0;
    let absent = 0;
    const real = adjacentByBruteForce(text);
    for (const a of ids.slice(0, 300)) {
      for (const b of ids.slice(0, 300)) {
        if (real.has(`${a},${b}`)) continue;
        absent++;
        if (pairs.mayFollow(a, b)) allowed++;
      }
    }
    expect(allowed / absent).toBeLessThan(0.05);
  });
});
