/**
 * Properties checked: however objectIDs are added, replaced (the old id deleted first, as the store does),
 * deleted and round-tripped through a snapshot, each objectID finds exactly the live id a Map model says, every
 * id gives back its objectID, and the live count matches — including past table growth and tombstone reuse.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ObjectIds } from './object-ids.ts';
import { SnapshotReader, SnapshotWriter } from '../snapshot/format.ts';

type Step = { kind: 'put'; objectID: string } | { kind: 'delete'; objectID: string } | { kind: 'snapshot' };

// A small alphabet so that puts and deletes often hit the same objectIDs; non-ASCII takes 2–4 UTF-8 bytes.
const objectID = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '日', '🙂', '-'), minLength: 0, maxLength: 4 });
const steps = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: objectID.map((id): Step => ({ kind: 'put', objectID: id })) },
    { weight: 3, arbitrary: objectID.map((id): Step => ({ kind: 'delete', objectID: id })) },
    { weight: 1, arbitrary: fc.constant<Step>({ kind: 'snapshot' }) },
  ),
  { maxLength: 400 },
);

/** The objectIDs' bytes and offsets as a snapshot stores them (copied in steps, runs of ids at once). */
function toSnapshot(ids: ObjectIds): { bytes: Uint8Array; offsets: Uint32Array } {
  const w = new SnapshotWriter();
  ids.save(w, 'offsets', 'bytes');
  const r = new SnapshotReader(w.finish());
  const offsets = r.u32('offsets');
  const words = r.u32('bytes');
  return { bytes: new Uint8Array(words.buffer, words.byteOffset, offsets[offsets.length - 1]), offsets };
}

function roundTrip(ids: ObjectIds, deleted: Set<number>): ObjectIds {
  const { bytes, offsets } = toSnapshot(ids);
  const restored = ObjectIds.fromSnapshot(bytes, offsets, (id) => deleted.has(id));
  expect(restored).not.toBeNull();
  return restored!;
}

describe('ObjectIds', () => {
  it('finds each objectID at the live id a Map says, across replacements, deletes and snapshots', () => {
    fc.assert(
      fc.property(steps, (script) => {
        let ids = new ObjectIds();
        const model = new Map<string, number>();
        const names: string[] = [];
        const deleted = new Set<number>();
        for (const step of script) {
          if (step.kind === 'snapshot') {
            ids = roundTrip(ids, deleted);
            continue;
          }
          const current = model.get(step.objectID);
          if (current !== undefined) {
            ids.delete(current);
            deleted.add(current);
            model.delete(step.objectID);
          }
          if (step.kind === 'put') {
            const id = ids.push(step.objectID);
            expect(id).toBe(names.length);
            names.push(step.objectID);
            model.set(step.objectID, id);
          } else {
            // Right after a delete: a slot emptied in the middle of a probe chain would hide the keys after it.
            for (const [name, id] of model) expect(ids.get(name)).toBe(id);
          }
        }
        expect(ids.size).toBe(model.size);
        expect(ids.length).toBe(names.length);
        for (const name of new Set(names)) expect(ids.get(name)).toBe(model.get(name));
        names.forEach((name, id) => {
          expect(ids.isDeleted(id)).toBe(deleted.has(id));
          if (!deleted.has(id)) expect(ids.objectIdOf(id)).toBe(name);
        });
      }),
      { numRuns: 200 },
    );
  });

  it('grows its table and reuses tombstones: 20,000 ids, half deleted and replaced', () => {
    const ids = new ObjectIds();
    for (let i = 0; i < 20_000; i++) ids.push(`p${i}`);
    // Deletes alone (no insert, so no rehash): the odd ones must stay findable past the deleted slots.
    for (let i = 0; i < 20_000; i += 2) ids.delete(ids.get(`p${i}`)!);
    for (let i = 1; i < 20_000; i += 2) expect(ids.objectIdOf(ids.get(`p${i}`)!)).toBe(`p${i}`);
    expect(ids.get('p0')).toBeUndefined();
    for (let i = 0; i < 20_000; i += 2) ids.push(`p${i}`);
    expect(ids.size).toBe(20_000);
    expect(ids.length).toBe(30_000);
    for (let i = 0; i < 20_000; i++) expect(ids.objectIdOf(ids.get(`p${i}`)!)).toBe(`p${i}`);
    expect(ids.get('p20000')).toBeUndefined();
  });

  it('refuses a snapshot where two live ids hold the same objectID', () => {
    const ids = new ObjectIds();
    ids.push('a');
    ids.push('b');
    const { offsets } = toSnapshot(ids);
    const bytes = new TextEncoder().encode('aa');
    expect(ObjectIds.fromSnapshot(bytes, offsets, () => false)).toBeNull();
  });
});
