/**
 * Query aggregation: which searches continue a user's sequence (prefix either way, one edit, within the window,
 * same user, index and tags), which one is counted when a sequence closes, and that every search's queryID is
 * attributed to exactly one counted search whatever the stream (a fast-check property against a replay).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SearchLogEntry } from '@vitrine/protocol';
import { continues, QuerySequences, type SearchSequence, withinOneEdit } from './query-sequences.ts';

/** Edit distance with adjacent swaps (optimal string alignment): the oracle for `withinOneEdit`. */
function swapDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

const WINDOW = 30_000;

function recorder() {
  const closed: SearchSequence[] = [];
  return { closed, close: (sequence: SearchSequence) => closed.push(sequence) };
}

const search = (query: string, queryID?: string, extra: Partial<SearchLogEntry> = {}): SearchLogEntry => ({ index: 'shop', query, nbHits: 1, queryID, ...extra });

describe('query continuation', () => {
  it('continues by prefix either way or one edit, never from or to an empty query', () => {
    expect(continues('la', 'lamp')).toBe(true);
    expect(continues('lamp', 'lam')).toBe(true);
    expect(continues('lamp', 'lamp')).toBe(true);
    expect(continues('lmap', 'lamp')).toBe(true);
    expect(continues('lamp', 'lump')).toBe(true);
    expect(continues('desk lamp', 'desk lamps')).toBe(true);
    expect(continues('lamp', 'desk lamp')).toBe(false);
    expect(continues('lamp', 'chair')).toBe(false);
    expect(continues('', 'lamp')).toBe(false);
    expect(continues('lamp', '')).toBe(false);
  });

  it('finds one edit exactly where the edit distance with swaps is at most one', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 7 });
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(withinOneEdit(a, b)).toBe(swapDistance(a, b) <= 1);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('query sequences', () => {
  it('counts the last search of a user typing, with every queryID of the sequence', () => {
    const sequences = new QuerySequences(WINDOW);
    const { closed, close } = recorder();
    ['l', 'la', 'lam', 'lamp'].forEach((query, i) => sequences.offer(search(query, `q${i}`), 1000 + i * 300, query, 'u1', close));
    expect(closed).toEqual([]);
    expect(sequences.openCount).toBe(1);
    // The next search starts another sequence and closes this one.
    sequences.offer(search('chair', 'q9'), 3000, 'chair', 'u1', close);
    expect(closed).toHaveLength(1);
    expect(closed[0]).toMatchObject({ query: 'lamp', ts: 1900, queryIDs: ['q0', 'q1', 'q2', 'q3'] });
    expect(closed[0].entry.queryID).toBe('q3');
  });

  it('keeps users, indices and analytics tags apart', () => {
    const sequences = new QuerySequences(WINDOW);
    const { closed, close } = recorder();
    sequences.offer(search('la'), 0, 'la', 'u1', close);
    sequences.offer(search('lamp'), 10, 'lamp', 'u2', close);
    sequences.offer(search('lam', undefined, { index: 'other' }), 20, 'lam', 'u1', close);
    sequences.offer(search('lamp', undefined, { analyticsTags: ['mobile'] }), 30, 'lamp', 'u1', close);
    expect(closed).toEqual([]);
    expect(sequences.openCount).toBe(4);
    sequences.closeAll(close);
    expect(closed.map((s) => s.query).sort()).toEqual(['la', 'lam', 'lamp', 'lamp']);
  });

  it('does not continue past the window, and closes sequences whose window has passed', () => {
    const sequences = new QuerySequences(WINDOW);
    const { closed, close } = recorder();
    sequences.offer(search('lam'), 0, 'lam', 'u1', close);
    sequences.offer(search('lamp'), WINDOW + 1, 'lamp', 'u1', close);
    expect(closed.map((s) => s.query)).toEqual(['lam']);
    sequences.offer(search('chair'), WINDOW + 10, 'chair', 'u2', close);
    sequences.closeDue(2 * WINDOW + 1, close);
    expect(closed.map((s) => s.query)).toEqual(['lam']);
    sequences.closeDue(2 * WINDOW + 2, close);
    expect(closed.map((s) => s.query)).toEqual(['lam', 'lamp']);
    sequences.closeDue(2 * WINDOW + 11, close);
    expect(closed.map((s) => s.query)).toEqual(['lam', 'lamp', 'chair']);
    expect(sequences.openCount).toBe(0);
  });

  it('counts empty queries and searches of unknown users at once, and everything with no window', () => {
    const sequences = new QuerySequences(WINDOW);
    const { closed, close } = recorder();
    sequences.offer(search('lam'), 0, 'lam', 'u1', close);
    sequences.offer(search(''), 5, '', 'u1', close);
    sequences.offer(search('lamp'), 10, 'lamp', undefined, close);
    expect(closed.map((s) => s.query)).toEqual(['lam', '', 'lamp']);
    const off = new QuerySequences(0);
    off.offer(search('la'), 0, 'la', 'u1', close);
    off.offer(search('lam'), 1, 'lam', 'u1', close);
    expect(closed.map((s) => s.query)).toEqual(['lam', '', 'lamp', 'la', 'lam']);
    expect(off.openCount).toBe(0);
  });

  it('closes the sequence an event names, whichever of its searches the event came from', () => {
    const sequences = new QuerySequences(WINDOW);
    const { closed, close } = recorder();
    sequences.offer(search('lam', 'early'), 0, 'lam', 'u1', close);
    sequences.offer(search('lamp', 'late'), 100, 'lamp', 'u1', close);
    sequences.offer(search('chair', 'other'), 100, 'chair', 'u2', close);
    sequences.closeHolding(['early', 'unknown'], close);
    expect(closed).toHaveLength(1);
    expect(closed[0]).toMatchObject({ query: 'lamp', queryIDs: ['early', 'late'] });
    // Closed sequences are forgotten: naming them again closes nothing.
    sequences.closeHolding(['late'], close);
    expect(closed).toHaveLength(1);
    expect(sequences.openCount).toBe(1);
  });

  it('stays within its bound of open sequences, closing the least recently continued', () => {
    const sequences = new QuerySequences(WINDOW, 3);
    const { closed, close } = recorder();
    for (const user of ['a', 'b', 'c']) sequences.offer(search('la'), 0, 'la', user, close);
    sequences.offer(search('lam'), 1, 'lam', 'a', close);
    sequences.offer(search('la'), 2, 'la', 'd', close);
    expect(sequences.openCount).toBe(3);
    expect(closed).toHaveLength(1);
    expect(closed[0].queryIDs).toEqual([]);
    // b was the least recently continued.
    sequences.closeAll(close);
    expect(closed.map((s) => s.query)).toEqual(['la', 'la', 'lam', 'la']);
  });

  it('attributes every queryID to exactly one counted search, which continues all the sequence held', () => {
    const step = fc.record({
      user: fc.constantFrom('u1', 'u2', 'u3'),
      query: fc.constantFrom('', 'l', 'la', 'lam', 'lamp', 'lmap', 'lamps', 'chair', 'ch'),
      gap: fc.integer({ min: 0, max: 20_000 }),
      action: fc.constantFrom('search', 'search', 'search', 'due', 'event'),
    });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const sequences = new QuerySequences(WINDOW, 2);
        const closed: SearchSequence[] = [];
        const queries = new Map<string, string>();
        let now = 0;
        let n = 0;
        steps.forEach(({ user, query, gap, action }) => {
          now += gap;
          const id = `q${n++}`;
          if (action === 'due') sequences.closeDue(now, (s) => closed.push(s));
          else if (action === 'event' && n > 1) sequences.closeHolding([`q${n - 2}`], (s) => closed.push(s));
          else {
            queries.set(id, query);
            sequences.offer(search(query, id), now, query, user, (s) => closed.push(s));
          }
        });
        sequences.closeAll((s) => closed.push(s));
        expect(sequences.openCount).toBe(0);
        const attributed = closed.flatMap((s) => s.queryIDs);
        expect(attributed.sort()).toEqual([...queries.keys()].sort());
        for (const sequence of closed) {
          // The counted search is the sequence's last, and each search of the sequence continues the one before.
          expect(sequence.queryIDs.at(-1)).toBe(sequence.entry.queryID);
          const texts = sequence.queryIDs.map((id) => queries.get(id)!);
          for (let i = 1; i < texts.length; i++) expect(continues(texts[i - 1], texts[i])).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
