/**
 * The records and everything derived from them, keyed by dense internal ids.
 *
 * Writes append: a new or replaced record gets the next id, the old id is tombstoned (cleared from `live`).
 * Postings, forward index and facet columns are append-only, so a write costs only the new records' tokens.
 * A replacement that changes no indexed attribute (searchable, faceted, `_tags`, `_geoloc`) is made in place
 * instead — a popularity, stock or margin update keeps its id, no tokens are written and no tombstone is left
 * (see `upsert`).
 * Structures that need a global order (numeric columns, custom ranking ranks, facet rows) are built lazily and
 * cached by `version`; after a write, those that can are extended by the appended documents (see `cached`)
 * rather than rebuilt. When tombstones outnumber live records, the owner rebuilds the store (compaction).
 *
 * Implements the filter module's `FilterSource`.
 */
import type { IndexRecord } from '@vitrine/protocol';
import { Bitset } from '../structures/bitset.ts';
import { type DocId, asDocId } from '../structures/ids.ts';
import type { FilterSource, NumericOperator } from '../filter/types.ts';
import { normalizeText } from '../tokenize/index.ts';
import { TextIndex } from './text-index.ts';
import { FacetColumn } from './facet-column.ts';
import { NumericColumn } from './numeric-column.ts';
import { facetValues, numericValues, parsePath } from './attributes.ts';
import type { FacetAttribute, SearchableSlot } from '../settings.ts';
import type { SnapshotReader, SnapshotWriter } from '../snapshot/format.ts';
import { createEngineError } from '../errors.ts';
import { RecordList } from './record-list.ts';
import { ObjectIds } from './object-ids.ts';
import { ChangeLog, changedTopLevels, topLevel } from './changes.ts';

/**
 * Names the stores of this process: internal ids only mean something within one store (see `generation`).
 * The random part keeps a store of a later process (after a restart) from taking the name of an earlier one.
 */
const PROCESS_TAG = Math.random().toString(36).slice(2, 10);
let storesCreated = 0;

export class IndexStore implements FilterSource {
  /**
   * Which store this is. A rebuild (settings change, compaction) or a restore makes a new store with new ids, so
   * anything that remembers ids across calls (browse cursors) checks it is still talking to the same store.
   */
  readonly generation = `${PROCESS_TAG}.${++storesCreated}`;
  /** Record by internal id; undefined once deleted or replaced. */
  records = new RecordList();
  /** objectID ↔ id, off the JavaScript heap (see `object-ids.ts`). */
  private objectIds = new ObjectIds();
  private liveSet = new Bitset(1024);
  liveCount = 0;
  /** Bumped by every write: lazily derived structures compare it with the version they were built at. */
  version = 0;
  readonly text: TextIndex;
  readonly facets = new Map<string, FacetColumn>();
  private readonly lazy = new Map<string, LazyEntry>();
  /** Replacements made in place (tests, benchmarks). */
  inPlaceUpdates = 0;
  /** First path segments of every indexed attribute; null when every attribute is searchable. */
  private readonly indexed: Set<string> | null;
  /** What each write changed, for results cached across writes (see `changes.ts`). */
  readonly changes = new ChangeLog();

  /** The live id holding `objectID`. */
  docOf(objectID: string): DocId | undefined {
    const doc = this.objectIds.get(objectID);
    return doc === undefined ? undefined : asDocId(doc);
  }

  constructor(
    searchable: SearchableSlot[] | null,
    separatorsToIndex: string,
    readonly facetAttributes: FacetAttribute[],
  ) {
    this.text = new TextIndex(searchable, separatorsToIndex);
    for (const facet of facetAttributes) this.facets.set(facet.attribute, new FacetColumn(facet.attribute, facet.path));
    this.indexed =
      searchable === null ? null : new Set(['objectID', '_tags', '_geoloc', ...searchable.map((s) => topLevel(s.attribute)), ...facetAttributes.map((f) => topLevel(f.attribute))]);
  }

  isLive(doc: number): boolean {
    return doc < this.liveSet.capacity && this.liveSet.has(doc);
  }

  /** Number of ids allocated (live or not): the capacity of every bitset over this store. */
  get capacity(): number {
    return this.records.length;
  }

  get tombstones(): number {
    return this.records.length - this.liveCount;
  }

  /**
   * Adds or replaces one record (the caller has validated it). A replacement changing no indexed attribute is
   * made in place unless `inPlace` is false (a compaction's copies: see `index/compaction.ts`). The choice
   * depends on the records and settings only, never on what searches ran: replicas of an index (search
   * threads) given the same writes number records alike, so ties break alike on every one of them.
   */
  upsert(record: IndexRecord, inPlace = true): DocId {
    const previous = this.objectIds.get(record.objectID);
    // With every attribute searchable nothing is ever changed in place: no need to read the replaced record.
    const mayStay = inPlace && this.indexed !== null;
    const before = previous !== undefined && (this.changes.detailed || mayStay) ? this.records.get(previous) : undefined;
    const changed = before === undefined ? null : changedTopLevels(before, record);
    if (previous !== undefined && changed !== null && mayStay && this.replaceInPlace(previous, changed, record)) return asDocId(previous);
    this.removeDoc(previous);
    const doc = asDocId(this.records.length);
    this.records.push(record);
    this.objectIds.push(record.objectID);
    this.text.add(doc, record);
    for (const column of this.facets.values()) column.add(doc, record);
    for (const entry of this.lazy.values()) entry.deps?.note?.(entry.value, doc, record);
    if (doc >= this.liveSet.capacity) {
      const grown = new Bitset(Math.max(1024, this.liveSet.capacity * 2));
      grown.words.set(this.liveSet.words);
      this.liveSet = grown;
    }
    this.liveSet.add(doc);
    this.liveCount++;
    this.version++;
    if (previous === undefined) this.changes.membershipChanged(this.version);
    else this.changes.replaced(changed, this.version);
    return doc;
  }

  /**
   * Replaces `doc`'s record keeping its id, when no indexed attribute changed; false (nothing done) otherwise.
   * The postings, facet columns, adjacent pairs and word expansions stay as they are: none of them read what
   * changed. Derived structures reading a changed attribute follow (`LazyDeps.update`) or are dropped, to be
   * built again when next needed.
   */
  private replaceInPlace(doc: number, changed: ReadonlySet<string>, after: IndexRecord): boolean {
    for (const attribute of changed) if (this.indexed!.has(attribute)) return false;
    this.records.replace(doc, after);
    const previousVersion = this.version++;
    this.inPlaceUpdates++;
    this.changes.replaced(changed, this.version);
    for (const [key, entry] of this.lazy) {
      const deps = entry.deps;
      if (deps === undefined || deps.reads.some((attribute) => changed.has(attribute))) {
        if (deps?.update === undefined) {
          this.lazy.delete(key);
          continue;
        }
        // A structure not yet extended to `doc` reads its record when it is (or what it noted of it); one holding
        // it follows now, even if it is behind on other writes (its extension only reads the documents appended since).
        if (doc < entry.capacity) entry.value = deps.update(entry.value, doc, after);
        else deps.note?.(entry.value, doc, after);
      }
      // Still current if it was: the change touched nothing else it reads.
      if (entry.version === previousVersion) entry.version = this.version;
    }
    return true;
  }

  remove(objectID: string): boolean {
    if (!this.removeDoc(this.objectIds.get(objectID))) return false;
    this.changes.membershipChanged(this.version);
    return true;
  }

  private removeDoc(doc: number | undefined): boolean {
    if (doc === undefined) return false;
    this.objectIds.delete(doc);
    this.records.delete(doc);
    this.liveSet.delete(doc);
    this.liveCount--;
    this.version++;
    return true;
  }

  /**
   * Derived data built once per version (and per key). With `extend`, a structure built at an older version is
   * brought up to date from the documents appended since (ids `from` to `capacity`) instead of being rebuilt:
   * writes only append ids, and a structure that still holds tombstoned ids is fine as long as its readers
   * mask with live documents (every query does). Without it, any write means a rebuild.
   *
   * `deps` says which attributes (first path segments) the structure reads from records besides the indexed
   * ones, and how it follows a record changed in place; one that cannot follow is dropped by such a change
   * (and built again when next needed), as is a structure without `deps` (it counts as reading everything).
   */
  cached<T>(key: string, build: () => T, extend?: (previous: T, from: number) => T, deps?: LazyDeps<T>): T {
    const entry = this.lazy.get(key);
    if (entry !== undefined && entry.version === this.version) return entry.value as T;
    const capacity = this.capacity;
    const value = entry !== undefined && extend !== undefined && entry.capacity <= capacity ? extend(entry.value as T, entry.capacity) : build();
    this.lazy.set(key, { version: this.version, capacity, value, deps: deps as LazyDeps<unknown> | undefined });
    return value;
  }

  /**
   * Records (deleted ones as empty ranges, so ids stay put), facet columns and text index, into a snapshot;
   * pausing (yielding) between them, for a caller that answers searches meanwhile (see `saveSnapshotInPieces`).
   */
  *save(w: SnapshotWriter): Generator<void, void, void> {
    w.json('store.meta', { documents: this.records.length, facets: this.facetAttributes.map((f) => f.attribute) });
    this.records.save(w);
    yield;
    this.objectIds.save(w, 'records.idOffsets', 'records.idBytes');
    yield;
    for (let i = 0; i < this.facetAttributes.length; i++) {
      this.facets.get(this.facetAttributes[i].attribute)!.save(w, `facet.${i}`);
      yield;
    }
    yield* this.text.save(w);
  }

  static load(r: SnapshotReader, searchable: SearchableSlot[] | null, separatorsToIndex: string, facetAttributes: FacetAttribute[]): IndexStore {
    const meta = r.json<{ documents: number; facets: string[] }>('store.meta');
    if (!Number.isInteger(meta?.documents) || !Array.isArray(meta.facets)) throw createEngineError('INVALID_SNAPSHOT', 'store metadata');
    if (meta.facets.join('\u0000') !== facetAttributes.map((f) => f.attribute).join('\u0000')) throw createEngineError('INVALID_SNAPSHOT', 'facets do not match the settings');
    const store = new IndexStore(searchable, separatorsToIndex, facetAttributes);
    const list = RecordList.load(r);
    if (list.length !== meta.documents) throw createEngineError('INVALID_SNAPSHOT', 'record count');
    store.records = list;
    const objectIds = r.has('records.idOffsets') ? ObjectIds.fromSnapshot(idBytes(r), r.u32('records.idOffsets'), (doc) => list.isDeleted(doc)) : fromIdList(r, list);
    if (objectIds === null || objectIds.length !== list.length) throw createEngineError('INVALID_SNAPSHOT', 'objectIDs');
    store.objectIds = objectIds;
    const live = new Bitset(Math.max(1024, list.length));
    for (let doc = 0; doc < list.length; doc++) if (!list.isDeleted(doc)) live.add(doc);
    store.liveSet = live;
    store.liveCount = objectIds.size;
    facetAttributes.forEach((facet, i) => store.facets.set(facet.attribute, FacetColumn.load(r, `facet.${i}`, facet.attribute, facet.path, meta.documents)));
    (store as { text: TextIndex }).text = TextIndex.load(r, separatorsToIndex, meta.documents);
    return store;
  }

  /** Whether `doc` holds the objectID `bytes[from, to)` (UTF-8). */
  holdsObjectId(doc: number, bytes: Uint8Array, from: number, to: number): boolean {
    return this.objectIds.holds(doc, bytes, from, to);
  }

  /** Whether a derived structure was built under `key` (at any version). */
  hasCached(key: string): boolean {
    return this.lazy.has(key);
  }

  /** Seeds a derived structure (restored from a snapshot) as if built at the current version. */
  seed<T>(key: string, value: T, deps: LazyDeps<T>): void {
    this.lazy.set(key, { version: this.version, capacity: this.capacity, value, deps: deps as LazyDeps<unknown> | undefined });
  }

  // FilterSource ---------------------------------------------------------------------------------------------

  all(): Bitset {
    return this.cached(
      'live',
      () => {
        const set = new Bitset(this.capacity);
        set.words.set(this.liveSet.words.subarray(0, set.words.length));
        return set;
      },
      undefined,
      NO_RECORD_READS,
    );
  }

  facet(attribute: string, value: string): Bitset {
    const capacity = this.capacity;
    if (attribute === 'objectID') {
      const set = new Bitset(capacity);
      const doc = this.objectIds.get(value);
      if (doc !== undefined) set.add(doc);
      return set;
    }
    const column = this.facets.get(attribute);
    if (column !== undefined) {
      const id = column.valueId(value);
      return id === undefined ? new Bitset(capacity) : column.docsWith(id, capacity);
    }
    // Not declared for faceting (booleans, or an attribute only used in filters): scan once, cache per value.
    const key = normalizeText(value);
    return this.cached(
      `scan:${attribute}\u0000${key}`,
      () => {
        const set = new Bitset(capacity);
        const path = parsePath(attribute);
        this.records.forEach((record, doc) => {
          if (record !== undefined && facetValues(record, path).some((v) => normalizeText(v) === key)) set.add(doc);
        });
        return set;
      },
      undefined,
      { reads: [topLevel(attribute)] },
    );
  }

  tag(value: string): Bitset {
    return this.facet('_tags', value);
  }

  numeric(attribute: string, operator: NumericOperator, value: number): Bitset {
    return this.numericColumn(attribute).compare(operator, value, this.capacity);
  }

  range(attribute: string, lower: number, upper: number): Bitset {
    return this.numericColumn(attribute).range(lower, upper, this.capacity);
  }

  numericColumn(attribute: string): NumericColumn {
    const column = this.facets.get(attribute);
    const path = parsePath(attribute);
    // Deleted documents keep their values: harmless, as every query masks with live documents.
    const fresh = (): NumericColumn => (column && NumericColumn.fromFacet(column, this.capacity)) ?? NumericColumn.fromRecords(this.records, path);
    return this.cached(
      `numeric:${attribute}`,
      fresh,
      (previous, from) => {
        if (from === this.capacity) return previous;
        // A facet column that gained booleans no longer yields a numeric column: rebuild, whichever way it goes.
        if (column !== undefined && previous.fromFacet !== (NumericColumn.fromFacet(column, 0) !== null)) return fresh();
        return previous.extended(column !== undefined && previous.fromFacet ? column : null, this.records, path, from, this.capacity);
      },
      {
        reads: [topLevel(attribute)],
        // A facet's column changes with the facet, never in place.
        update: (previous, doc, after) => (previous.fromFacet ? previous : previous.replaceValues(doc, numericValues(after, path))),
      },
    );
  }
}

/** What a derived structure reads from records besides the indexed attributes (see `IndexStore.cached`). */
export interface LazyDeps<T> {
  /** First path segments of the attributes read. */
  reads: readonly string[];
  /** Brings the structure up to date after `doc`'s record became `after` in place; without it, such a change drops the structure. */
  update?: (previous: T, doc: number, after: IndexRecord) => T;
  /**
   * Notes what the structure reads of `record`, the record of `doc`, a document it does not cover yet (appended
   * since it was built, or changed in place since appended), while the record is in hand: its extension then
   * need not parse the record again from its bytes (a replay after a crash appends tens of thousands).
   */
  note?: (previous: T, doc: number, record: IndexRecord) => void;
}

/** For structures derived from the indexed attributes or from which records exist only. */
export const NO_RECORD_READS: { readonly reads: readonly string[] } = { reads: [] };

interface LazyEntry {
  version: number;
  capacity: number;
  value: unknown;
  deps: LazyDeps<unknown> | undefined;
}

/** The objectIDs' bytes of a snapshot (the section is padded to whole words; the last offset is the length). */
function idBytes(r: SnapshotReader): Uint8Array {
  const offsets = r.u32('records.idOffsets');
  const words = r.u32('records.idBytes');
  const length = offsets.length === 0 ? 0 : offsets[offsets.length - 1];
  if (length > words.byteLength) throw createEngineError('INVALID_SNAPSHOT', 'objectIDs');
  return new Uint8Array(words.buffer, words.byteOffset, length);
}

/** objectIDs of a snapshot written before they were kept as bytes: a JSON list, null for deleted records. */
function fromIdList(r: SnapshotReader, list: RecordList): ObjectIds | null {
  const ids = r.json<Array<string | null>>('records.ids');
  if (!Array.isArray(ids) || ids.length !== list.length) return null;
  const objectIds = new ObjectIds();
  for (let doc = 0; doc < ids.length; doc++) {
    const id = ids[doc];
    if ((id === null) !== list.isDeleted(doc) || (id !== null && typeof id !== 'string')) return null;
    if (id !== null && objectIds.get(id) !== undefined) return null;
    objectIds.push(id ?? '');
    if (id === null) objectIds.delete(doc);
  }
  return objectIds;
}
