/**
 * One facet attribute as a column: a dictionary of its values (case- and diacritics-insensitive, displayed with
 * the case first seen) and, per document, the ids of its values in a CSR layout (offsets + one flat array).
 * Counting facets over a match set is then a loop of array increments, with no strings touched until the
 * top values are picked.
 */
import type { DocId } from '../structures/ids.ts';
import { GrowableUint32, roomyUint32 } from '../structures/growable.ts';
import { Bitset } from '../structures/bitset.ts';
import { normalizeText } from '../tokenize/index.ts';
import { facetValues, leaves, type AttributePath } from './attributes.ts';
import { FacetLabels } from './facet-labels.ts';
import type { SnapshotReader, SnapshotWriter } from '../snapshot/format.ts';
import { createEngineError } from '../errors.ts';

/** Above this many documents added since a value's bitset was built, rebuilding it from the inverted column is cheaper. */
const CATCH_UP_LIMIT = 4096;

/** "No value" in a single-valued column. */
export const NONE = 0xffffffff;

export class FacetColumn {
  /** Display value per value id (original case of its first occurrence), and the id of a normalised value. */
  labels = new FacetLabels();
  /** Numeric value per value id, NaN when the value is not a number (for facets_stats). */
  numbers: number[] = [];
  /** Values of document d: values[offsets[d] .. offsets[d + 1]). */
  readonly offsets = new GrowableUint32(1024);
  readonly values = new GrowableUint32(1024);
  /** Value id → its documents as a bitset, and how many documents the column had when it was last updated. */
  private bitsets = new Map<number, { set: Bitset; docs: number }>();

  constructor(
    readonly attribute: string,
    readonly path: AttributePath,
  ) {
    this.offsets.push(0);
  }

  get valueCount(): number {
    return this.labels.length;
  }

  /**
   * Each value id's position in the labels' order (code unit order, as `<` compares strings): facet values are
   * sorted on every search, and comparing two numbers is much cheaper than comparing two labels. Rebuilt only
   * when values were added.
   */
  labelRanks(): Uint32Array {
    if (this.ranks !== null && this.ranks.length === this.labels.length) return this.ranks;
    const labels = [...this.labels];
    const order = labels.map((_, id) => id).sort((a, b) => (labels[a] < labels[b] ? -1 : labels[a] > labels[b] ? 1 : 0));
    const ranks = new Uint32Array(labels.length);
    order.forEach((id, rank) => (ranks[id] = rank));
    this.order = Uint32Array.from(order);
    return (this.ranks = ranks);
  }

  /** The value ids in the labels' order: the inverse of `labelRanks`. */
  labelOrder(): Uint32Array {
    this.labelRanks();
    return this.order!;
  }

  private ranks: Uint32Array | null = null;
  private order: Uint32Array | null = null;

  /**
   * When no document has more than one value (brand, colour, category level...), the value id per document
   * (NONE without a value): counting is then one array read per document. Null for multi-valued columns.
   */
  singleValued(): Uint32Array | null {
    if (this.single !== undefined && this.singleFor === this.offsets.length) return this.single;
    // A multi-valued document stays (ids are never reused), so null is final; after appends, only the new
    // documents are read.
    if (this.single === null) return null;
    const docs = this.offsets.length - 1;
    const offsets = this.offsets.data;
    const from = this.single === undefined ? 0 : this.singleFor - 1;
    // Grown in place (earlier views stay valid for the documents they cover).
    const buffer = this.single === undefined ? new Uint32Array(docs) : roomyUint32(this.singleBuffer, docs, from);
    buffer.fill(NONE, from, docs);
    let single: Uint32Array | null = buffer.subarray(0, docs);
    for (let d = from; d < docs; d++) {
      const n = offsets[d + 1] - offsets[d];
      if (n > 1) {
        single = null;
        break;
      }
      if (n === 1) buffer[d] = this.values.data[offsets[d]];
    }
    this.single = single;
    this.singleBuffer = buffer;
    this.singleFor = this.offsets.length;
    return single;
  }

  private single: Uint32Array | null | undefined;
  private singleBuffer: Uint32Array = new Uint32Array(0);
  private singleFor = -1;

  add(doc: DocId, record: Record<string, unknown> | undefined): void {
    if (doc !== this.offsets.length - 1) throw new Error(`facet column out of step: ${doc}`);
    if (record !== undefined) {
      const raw = facetValues(record, this.path);
      const start = this.values.length;
      for (const value of raw) {
        const id = this.intern(value, record);
        // A value repeated within one record counts once.
        let seen = false;
        for (let k = start; k < this.values.length; k++) if (this.values.data[k] === id) seen = true;
        if (!seen) this.values.push(id);
      }
    }
    this.offsets.push(this.values.length);
    // Cached value bitsets stay: `docsWith` brings them up to date from the documents added since.
    this.inverted = null;
  }

  valueId(value: string): number | undefined {
    return this.labels.idOf(normalizeText(value));
  }

  /** Documents having value `id`, ascending (deleted ones included). Built for all values at once, lazily. */
  docsOf(id: number): Uint32Array {
    const inverted = this.invert();
    return inverted.docs.subarray(inverted.starts[id], inverted.starts[id + 1]);
  }

  /**
   * Documents having value `id` as a bitset (cached; shared: callers never mutate it, nor keep it past their
   * search). Includes deleted documents. After a few appended documents, the cached set is grown and the new
   * documents' values read, rather than re-inverting the whole column.
   */
  docsWith(id: number, capacity: number): Bitset {
    const docs = this.offsets.length - 1;
    const entry = this.bitsets.get(id);
    if (entry !== undefined && entry.set.capacity === capacity && entry.docs === docs) return entry.set;
    let set: Bitset;
    if (entry !== undefined && entry.docs <= docs && docs - entry.docs <= CATCH_UP_LIMIT && entry.set.capacity <= capacity) {
      // Grown in place while its buffer has room (a set handed out earlier is only used within its search).
      set = entry.set.grownTo(capacity);
      const offsets = this.offsets.data;
      const values = this.values.data;
      for (let d = entry.docs; d < docs; d++) {
        for (let k = offsets[d]; k < offsets[d + 1]; k++) if (values[k] === id) set.add(d);
      }
    } else {
      set = Bitset.growable(capacity);
      const held = this.docsOf(id);
      for (let k = 0; k < held.length; k++) set.add(held[k]);
    }
    this.bitsets.set(id, { set, docs });
    return set;
  }

  private inverted: { starts: Uint32Array; docs: Uint32Array } | null = null;

  private invert(): { starts: Uint32Array; docs: Uint32Array } {
    if (this.inverted !== null) return this.inverted;
    const count = this.labels.length;
    const starts = new Uint32Array(count + 1);
    const values = this.values.data;
    const total = this.values.length;
    for (let k = 0; k < total; k++) starts[values[k] + 1]++;
    for (let v = 0; v < count; v++) starts[v + 1] += starts[v];
    const fill = starts.slice(0, count);
    const docs = new Uint32Array(total);
    const offsets = this.offsets.data;
    const docCount = this.offsets.length - 1;
    for (let d = 0; d < docCount; d++) {
      for (let k = offsets[d]; k < offsets[d + 1]; k++) docs[fill[values[k]]++] = d;
    }
    this.inverted = { starts, docs };
    return this.inverted;
  }

  save(w: SnapshotWriter, prefix: string): void {
    this.labels.save(w, prefix);
    w.f64(`${prefix}.numbers`, Float64Array.from(this.numbers));
    w.u32(`${prefix}.offsets`, this.offsets.view(), { grows: true });
    w.u32(`${prefix}.values`, this.values.view(), { grows: true });
  }

  static load(r: SnapshotReader, prefix: string, attribute: string, path: AttributePath, documents: number): FacetColumn {
    const column = new FacetColumn(attribute, path);
    const labels = FacetLabels.load(r, prefix);
    const numbers = r.f64(`${prefix}.numbers`);
    const grownOffsets = r.growableU32(`${prefix}.offsets`);
    const grownValues = r.growableU32(`${prefix}.values`);
    const offsets = grownOffsets.view();
    const values = grownValues.view();
    if (numbers.length !== labels.length || offsets.length !== documents + 1 || offsets[documents] !== values.length) {
      throw createEngineError('INVALID_SNAPSHOT', `facet ${attribute} does not match the records`);
    }
    const valueCount = labels.length;
    for (let k = 0; k < values.length; k++) if (values[k] >= valueCount) throw createEngineError('INVALID_SNAPSHOT', `facet ${attribute} has unknown values`);
    column.labels = labels;
    column.numbers = Array.from(numbers);
    (column as { offsets: GrowableUint32 }).offsets = grownOffsets;
    (column as { values: GrowableUint32 }).values = grownValues;
    return column;
  }

  private intern(value: string, record: Record<string, unknown>): number {
    const key = normalizeText(value);
    let id = this.labels.idOf(key);
    if (id === undefined) {
      id = this.labels.add(value, key);
      this.numbers.push(numericLeaf(record, this.path, value));
    }
    return id;
  }
}

/** The number behind a facet value when the record holds it as a number (not a numeric-looking string). */
function numericLeaf(record: Record<string, unknown>, path: AttributePath, value: string): number {
  const found = leaves(record, path).find((leaf) => typeof leaf === 'number' && String(leaf) === value);
  return found === undefined ? NaN : (found as number);
}
