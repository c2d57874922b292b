import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IndexRecord } from '@vitrine/protocol';
import { SnapshotReader, SnapshotWriter } from '../snapshot/format.ts';
import { RecordList } from './record-list.ts';

const recordArbitrary = fc.record({
  objectID: fc.string({ minLength: 1, maxLength: 8 }),
  // Non-ASCII text and the occasional large value: records cross chunk ends and take 1–3 bytes per character.
  name: fc.oneof(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.string({ minLength: 20_000, maxLength: 40_000 })),
  price: fc.double({ noNaN: true, noDefaultInfinity: true }),
  tags: fc.array(fc.string({ maxLength: 5 }), { maxLength: 4 }),
});

type Step =
  | { kind: 'push'; record: IndexRecord }
  | { kind: 'replace'; at: number; record: IndexRecord }
  | { kind: 'delete'; at: number }
  | { kind: 'snapshot' }
  | { kind: 'read'; at: number };

const steps = fc.array(
  fc.oneof(
    { weight: 5, arbitrary: recordArbitrary.map((record): Step => ({ kind: 'push', record: record as IndexRecord })) },
    { weight: 2, arbitrary: fc.tuple(fc.nat(), recordArbitrary).map(([at, record]): Step => ({ kind: 'replace', at, record: record as IndexRecord })) },
    { weight: 1, arbitrary: fc.nat().map((at): Step => ({ kind: 'delete', at })) },
    { weight: 1, arbitrary: fc.constant<Step>({ kind: 'snapshot' }) },
    { weight: 2, arbitrary: fc.nat().map((at): Step => ({ kind: 'read', at })) },
  ),
  { maxLength: 60 },
);

function roundTrip(list: RecordList): RecordList {
  const writer = new SnapshotWriter();
  list.save(writer);
  return RecordList.load(new SnapshotReader(writer.finish()));
}

describe('RecordList', () => {
  it('gives back every record as written (deleted ones undefined), across replacements, deletes and snapshot round trips', () => {
    fc.assert(
      fc.property(steps, (script) => {
        let list = new RecordList();
        const model: Array<IndexRecord | undefined> = [];
        for (const step of script) {
          if (step.kind === 'push') {
            list.push(step.record);
            // What a JSON round trip keeps (-0 becomes 0): the list stores JSON.
            model.push(JSON.parse(JSON.stringify(step.record)) as IndexRecord);
          } else if (step.kind === 'replace' && model[step.at % Math.max(1, model.length)] !== undefined) {
            const doc = step.at % model.length;
            list.get(doc);
            list.replace(doc, step.record);
            model[doc] = JSON.parse(JSON.stringify(step.record)) as IndexRecord;
          } else if (step.kind === 'delete' && model.length > 0) {
            list.delete(step.at % model.length);
            model[step.at % model.length] = undefined;
          } else if (step.kind === 'snapshot') list = roundTrip(list);
          else if (step.kind === 'read' && model.length > 0) expect(list.get(step.at % model.length)).toEqual(model[step.at % model.length]);
        }
        expect(list.length).toBe(model.length);
        expect([...list.values()]).toEqual(model);
        model.forEach((record, doc) => expect(list.get(doc)).toEqual(record));
      }),
      { numRuns: 150 },
    );
  });

  it('keeps a bounded set of records parsed: reading many more than it keeps still returns each one right', () => {
    const list = new RecordList();
    for (let i = 0; i < 10_000; i++) list.push({ objectID: String(i), n: i });
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 10_000; i += 7) expect(list.get(i)).toEqual({ objectID: String(i), n: i });
    }
    // A record is stored as a copy: changing the object given to `push` changes nothing.
    const record = { objectID: 'x', n: 1 };
    list.push(record);
    record.n = 2;
    expect(list.get(10_000)).toEqual({ objectID: 'x', n: 1 });
  });

  it('reclaims the bytes of replaced records by sweeps, a few records per write, keeping every record', () => {
    const list = new RecordList();
    const filler = 'x'.repeat(2000);
    const expected: IndexRecord[] = [];
    for (let i = 0; i < 2000; i++) {
      expected.push({ objectID: String(i), version: 0, filler });
      list.push(expected[i]);
    }
    const live = list.deadBytes;
    expect(live).toBe(0);
    let maxDead = 0;
    let roundTripped = 0;
    for (let round = 1; round <= 20; round++) {
      for (let i = 0; i < 2000; i += 1 + (round % 3)) {
        if (expected[i] === undefined) continue;
        expected[i] = { objectID: String(i), version: round, filler };
        list.replace(i, expected[i]);
        maxDead = Math.max(maxDead, list.deadBytes);
      }
      if (round % 7 === 0) {
        // A snapshot taken in the middle of a sweep holds every record as last written.
        const restored = roundTrip(list);
        expect([...restored.values()]).toEqual(expected);
        roundTripped++;
      }
      list.delete(round);
      expected[round] = undefined as unknown as IndexRecord;
    }
    expect(list.sweeps).toBeGreaterThan(3);
    expect(roundTripped).toBe(2);
    // Dead bytes stay within about the live bytes plus what accumulates while a sweep runs (4 MB here).
    expect(maxDead).toBeLessThan(12 << 20);
    expect([...list.values()]).toEqual(expected);
    expected.forEach((record, doc) => expect(list.get(doc)).toEqual(record));
  });
});
