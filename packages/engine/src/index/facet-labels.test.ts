/**
 * Oracle property test for `FacetLabels` against a `Map` from normalised value to id and an array of labels:
 * whatever values are added (ASCII of any case, accents, ligatures, other scripts, numbers, empty), each id
 * gives back its label, each normalised value its id, values never added none; and the same after a snapshot,
 * whether saved as bytes or in the JSON list snapshots held before, and after adding more once loaded.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeText } from '../tokenize/index.ts';
import { SnapshotReader, SnapshotWriter } from '../snapshot/format.ts';
import { FacetLabels } from './facet-labels.ts';

const value = fc.oneof(
  fc.constantFrom('red', 'Red', 'RED', 'café', 'Cafe', 'Straße', 'strasse', 'æon', '日本', 'ǅ', '', ' ', '42', '4.5', '-0', 'true'),
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -1000, max: 100_000 }).map(String),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
);

class Oracle {
  readonly ids = new Map<string, number>();
  readonly labels: string[] = [];
  add(label: string): void {
    const key = normalizeText(label);
    if (this.ids.has(key)) return;
    this.ids.set(key, this.labels.length);
    this.labels.push(label);
  }
}

function addTo(labels: FacetLabels, label: string): void {
  const key = normalizeText(label);
  if (labels.idOf(key) === undefined) labels.add(label, key);
}

function expectSame(labels: FacetLabels, oracle: Oracle, probes: string[]): void {
  expect(labels.length).toBe(oracle.labels.length);
  expect([...labels]).toEqual(oracle.labels);
  oracle.labels.forEach((label, id) => expect(labels.get(id)).toBe(label));
  for (const [key, id] of oracle.ids) expect(labels.idOf(key)).toBe(id);
  for (const probe of probes) expect(labels.idOf(normalizeText(probe))).toBe(oracle.ids.get(normalizeText(probe)));
}

function roundTrip(labels: FacetLabels, asJson: boolean): FacetLabels {
  const w = new SnapshotWriter();
  if (asJson) w.json('f.labels', [...labels]);
  else labels.save(w, 'f');
  return FacetLabels.load(new SnapshotReader(w.finish()), 'f');
}

describe('facet labels', () => {
  it('finds every value added by its normalised form, before and after a snapshot, and as more are added', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 60 }), fc.array(value, { maxLength: 20 }), fc.array(value, { maxLength: 10 }), fc.boolean(), (first, later, probes, asJson) => {
        const labels = new FacetLabels();
        const oracle = new Oracle();
        for (const label of first) {
          addTo(labels, label);
          oracle.add(label);
        }
        expectSame(labels, oracle, probes);
        const loaded = roundTrip(labels, asJson);
        expectSame(loaded, oracle, probes);
        for (const label of later) {
          addTo(loaded, label);
          oracle.add(label);
        }
        expectSame(loaded, oracle, probes);
      }),
      { numRuns: 300 },
    );
  });

  it('grows its table past many values, and never writes into the snapshot it was loaded from', () => {
    const labels = new FacetLabels();
    for (let i = 0; i < 5000; i++) addTo(labels, `Group ${i}`);
    const w = new SnapshotWriter();
    labels.save(w, 'f');
    const bytes = w.finish();
    const before = bytes.slice();
    const loaded = FacetLabels.load(new SnapshotReader(bytes), 'f');
    for (let i = 5000; i < 6000; i++) addTo(loaded, `group ${i}`);
    expect(loaded.length).toBe(6000);
    expect(loaded.idOf('group 4999')).toBe(4999);
    expect(loaded.get(5999)).toBe('group 5999');
    expect(Buffer.compare(bytes, before)).toBe(0);
  });

  it('refuses labels whose offsets do not fit their bytes', () => {
    const w = new SnapshotWriter();
    w.u32('f.labelBytes', new Uint32Array(1));
    w.u32('f.labelStarts', Uint32Array.from([0, 9]));
    expect(() => FacetLabels.load(new SnapshotReader(w.finish()), 'f')).toThrow(/labels/);
  });
});
