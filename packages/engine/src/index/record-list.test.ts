import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IndexRecord } from '@vitrine/protocol';
import { SnapshotReader, SnapshotWriter } from '../snapshot/format.ts';
import { RecordList, type RecordSource, type RecordsStamp } from './record-list.ts';

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

  describe('records read from a snapshot', () => {
    /** A snapshot's records section as a source; reading one once closed fails the test. */
    function sourceOf(snapshot: Uint8Array): RecordSource & { closed: boolean; reads: number } {
      const words = new SnapshotReader(snapshot).u32('records.blob');
      const blob = new Uint8Array(words.buffer, words.byteOffset, words.byteLength);
      return {
        closed: false,
        reads: 0,
        read(start, length, into) {
          if (this.closed) throw new Error('read from a closed source');
          this.reads++;
          if (into === undefined) return blob.slice(start, start + length);
          // As a file does: into the caller's buffer, whose earlier content is then gone.
          into.set(blob.subarray(start, start + length));
          return into.subarray(0, length);
        },
        close() {
          this.closed = true;
        },
      };
    }

    const offsetsOf = (snapshot: Uint8Array) => new SnapshotReader(snapshot).u32('records.offsets');

    type ColdStep = Step | { kind: 'save' } | { kind: 'adopt'; skip: number };
    const coldSteps = fc.array(
      fc.oneof(
        steps.map((list) => list[0] ?? ({ kind: 'snapshot' } as Step)),
        { weight: 1, arbitrary: fc.constant<ColdStep>({ kind: 'save' }) },
        { weight: 1, arbitrary: fc.nat(4).map((skip): ColdStep => ({ kind: 'adopt', skip })) },
      ),
      { maxLength: 80 },
    );

    it('gives back every record as written, whichever were read from a snapshot taken before changes', () => {
      fc.assert(
        fc.property(coldSteps, (script) => {
          let list = new RecordList();
          const model: Array<IndexRecord | undefined> = [];
          let saved: { stamp: RecordsStamp; snapshot: Uint8Array } | null = null;
          const sources: Array<ReturnType<typeof sourceOf>> = [];
          for (const step of script) {
            if (step.kind === 'push') {
              list.push(step.record);
              model.push(JSON.parse(JSON.stringify(step.record)) as IndexRecord);
            } else if (step.kind === 'replace' && model[step.at % Math.max(1, model.length)] !== undefined) {
              list.replace(step.at % model.length, step.record);
              model[step.at % model.length] = JSON.parse(JSON.stringify(step.record)) as IndexRecord;
            } else if (step.kind === 'delete' && model.length > 0) {
              list.delete(step.at % model.length);
              model[step.at % model.length] = undefined;
            } else if (step.kind === 'snapshot') {
              list = roundTrip(list);
              saved = null;
              // The dropped list's source is closed when it is collected: not this test's business.
              sources.length = 0;
            } else if (step.kind === 'read' && model.length > 0) expect(list.get(step.at % model.length)).toEqual(model[step.at % model.length]);
            else if (step.kind === 'save') {
              const writer = new SnapshotWriter();
              list.save(writer);
              saved = { stamp: list.stamp(), snapshot: writer.finish() };
            } else if (step.kind === 'adopt' && saved !== null) {
              const source = sourceOf(saved.snapshot);
              sources.push(source);
              // Some documents said not to be the snapshot's (another copy's numbering): they stay in memory.
              list.readFrom(saved.stamp, { offsets: offsetsOf(saved.snapshot), source, sameRecord: (doc) => step.skip === 0 || doc % (step.skip + 1) !== 0 });
              saved = null;
            }
          }
          expect([...list.values()]).toEqual(model);
          model.forEach((record, doc) => expect(list.get(doc)).toEqual(record));
          // A snapshot of a list reading some records from a source holds them all.
          expect([...roundTrip(list).values()]).toEqual(model);
          // Only the last source the list adopted may still be open.
          expect(sources.slice(0, -1).every((source) => source.closed)).toBe(true);
        }),
        { numRuns: 200 },
      );
    });

    it('frees the memory of the records it reads from the snapshot, keeping those written since', () => {
      const list = new RecordList();
      const filler = 'y'.repeat(1000);
      for (let i = 0; i < 20_000; i++) list.push({ objectID: String(i), filler });
      const writer = new SnapshotWriter();
      list.save(writer);
      const stamp = list.stamp();
      const snapshot = writer.finish();
      list.replace(5, { objectID: '5', filler: 'changed' });
      list.push({ objectID: 'new' });
      const source = sourceOf(snapshot);
      expect(list.readFrom(stamp, { offsets: offsetsOf(snapshot), source })).toBe(19_999);
      expect(list.recordsOutOfMemory).toBe(19_999);
      // Left in memory: the replaced record and the new one, in the last chunk (at most 8 MB) with the dead
      // bytes of the records before them there; every chunk before it is dropped.
      expect(list.deadBytes).toBeLessThan(8 << 20);
      expect(list.deadBytes).toBeGreaterThan(0);
      expect(list.get(5)).toEqual({ objectID: '5', filler: 'changed' });
      expect(list.get(20_000)).toEqual({ objectID: 'new' });
      expect(list.get(7)).toEqual({ objectID: '7', filler });
      expect(source.reads).toBeGreaterThan(0);
      // Another list's stamp (the store rebuilt since) reads nothing, and the source is closed.
      const other = sourceOf(snapshot);
      expect(list.readFrom(roundTrip(list).stamp(), { offsets: offsetsOf(snapshot), source: other })).toBe(0);
      expect(other.closed).toBe(true);
      expect(list.get(7)).toEqual({ objectID: '7', filler });
    });
  });
});
