/**
 * `SearchIndex`: the engine's facade. Owns the records store and settings, and runs each search through the
 * stages: options → filters → words (parse, expand) → match set → facets → ranking → hits.
 */
import type {
  BrowseResponse,
  IndexRecord,
  IndexSettings,
  SearchForFacetValuesResponse,
  SearchParams,
  Rule,
  SearchResponse,
  SearchRulesParams,
  SearchRulesResponse,
  SynonymHit,
} from '@vitrine/protocol';
import type { EngineIndex, SearchOptions, SnapshotOptions, SteppedSearch } from './api.ts';
import { createEngineError } from './errors.ts';
import { IndexStore } from './index/store.ts';
import type { RecordSource, RecordsStamp } from './index/record-list.ts';
import { parseAttributesForFaceting, parseCustomRanking, parseSearchableAttributes, validateSettings, type SortSpec } from './settings.ts';
import { SnapshotWriter, type SnapshotReader } from './snapshot/format.ts';
import { customOrderDeps, customOrderFor, customOrderKey, remapCustomOrder } from './rank/custom-rank.ts';
import { describeDerived, holdsDerived, restoreDerived, type DerivedHeld } from './snapshot/derived.ts';
import { Compaction } from './index/compaction.ts';
import { Dictionaries } from './query/dictionaries.ts';
import { compileSynonyms, validateSynonym, type SynonymTable } from './query/synonyms.ts';
import { WordCache } from './query/match.ts';
import { DocumentScanner } from './rank/scan.ts';
import { queryBitsets } from './structures/bitset-pool.ts';
import { evaluateFilterConjuncts } from './filter/index.ts';
import { executeSearch, runFacetSearch, runBrowse, type ExecutedSearch, type PageHits, type SearchEnvironment } from './search/run.ts';
import { ResultCache, resultKey, type ResultCacheStats } from './search/result-cache.ts';
import { encodeParams } from './response/retrieve.ts';
import { RuleSet } from './rules/rule-set.ts';
import type { RulePlan } from './rules/consequences.ts';
import { withinKeyLimits } from './search/key-limits.ts';
import type { FacetValues } from './rules/match.ts';
import { terms } from './tokenize/index.ts';
import { parseEmbedders, splitVectors } from './vectors/embedders.ts';
import { VectorStore } from './vectors/vector-store.ts';

/** Compact once tombstones outnumber live records (and there are enough of them to be worth it). */
const COMPACT_MIN_TOMBSTONES = 10_000;
/**
 * While a compaction runs (`index/compaction.ts`), records copied per record written, and per search. Writes
 * carry most of it, so a burst of deletions compacts within the same call; searches make sure it ends without
 * writes. At 100,000 products a copy costs ~25 us: a search copying 2 pays ~50 us while it lasts.
 */
const COMPACTION_COPIES_PER_WRITE = 4;
const COMPACTION_COPIES_PER_SEARCH = 2;

export class SearchIndex implements EngineIndex {
  private settings: IndexSettings;
  private store: IndexStore;
  private synonymHits: SynonymHit[] = [];
  private synonymTable: SynonymTable | null = null;
  private readonly rules = new RuleSet();
  /** Facet values by their words, for rule placeholders: per column, rebuilt when the column gains values. */
  private facetValueCache = new Map<string, { store: IndexStore; labels: number; values: FacetValues }>();
  private dictionaries = new Dictionaries();
  private scanner: DocumentScanner | null = null;
  private settledVersion = -1;
  private readonly words = new WordCache();
  private readonly results = new ResultCache();
  /** The store being compacted into, a little at each write and search (null: none running). */
  private compaction: Compaction | null = null;
  /** The compaction policy (tests make it tiny, to interleave writes and searches with a running copy). */
  private readonly compactionPolicy = { minTombstones: COMPACT_MIN_TOMBSTONES, perWrite: COMPACTION_COPIES_PER_WRITE, perSearch: COMPACTION_COPIES_PER_SEARCH };
  /** Compactions completed (tests). */
  private compactions = 0;
  /**
   * Snapshots being given in pieces (`saveSnapshotInPieces`): searches do not advance a compaction meanwhile,
   * since its end swaps the store the snapshot is reading.
   */
  private snapshotsInPieces = 0;
  /** Changes to what a snapshot holds (`contentVersion`). */
  private edits = 0;
  /** What the snapshot this index was restored from held of the derived structures (`restoredSnapshotHolds`). */
  private restoredDerived: DerivedHeld | null = null;
  /** Records' vectors by embedder, under the store's ids (`vectors/`); kept out of the records' bytes. */
  private vectors: VectorStore;

  constructor(settings: IndexSettings = {}) {
    validateSettings(settings);
    this.settings = structuredClone(settings);
    this.store = this.emptyStore();
    this.vectors = new VectorStore(parseEmbedders(settings.embedders));
  }

  /**
   * Changes with every change to what a snapshot of the index holds (records, settings, synonyms, rules), never
   * otherwise: a caller that kept the snapshot written at one value knows it is still current at the same value.
   */
  get contentVersion(): number {
    return this.edits;
  }

  get size(): number {
    return this.store.liveCount;
  }

  getSettings(): IndexSettings {
    return structuredClone(this.settings);
  }

  setSettings(settings: IndexSettings): void {
    validateSettings(settings);
    this.edits++;
    const before = this.settings;
    this.settings = structuredClone(settings);
    this.results.clear();
    const same = (key: string): boolean => JSON.stringify(before[key]) === JSON.stringify(settings[key]);
    if (!same('embedders')) this.vectors = this.vectors.withEmbedders(parseEmbedders(settings.embedders));
    if (!same('searchableAttributes') || !same('separatorsToIndex') || !same('attributesForFaceting')) this.rebuild();
    if (!same('separatorsToIndex')) this.synonymTable = null;
  }

  saveObjects(records: IndexRecord[]): void {
    const steps = this.saveObjectsInSteps(records);
    while (!steps.next().done);
  }

  /**
   * `saveObjects` a record per step, for a caller that shares its thread with other work between steps (in one go,
   * a large batch holds the thread for as long as it takes to index). Validates the whole batch before the first record
   * is indexed, as `saveObjects` does. The index is half written between steps: the caller must let nothing
   * read or write it until the last step (its searches, snapshots and other writes wait or finish it first).
   */
  *saveObjectsInSteps(records: IndexRecord[]): Generator<void, void, void> {
    if (!Array.isArray(records)) throw createEngineError('INVALID_RECORD', 'expected an array of records');
    // Validate everything first: a bad record anywhere in the batch leaves the index untouched.
    records.forEach((record, i) => {
      if (record === null || typeof record !== 'object' || Array.isArray(record)) throw createEngineError('INVALID_RECORD', `record ${i} is not an object`);
      if (typeof record.objectID !== 'string' || record.objectID === '') throw createEngineError('INVALID_RECORD', `record ${i} has no string objectID`);
    });
    // `_vectors` checked for the whole batch too, and taken out of each record (kept apart: `vectors/`).
    const split = records.map((record, i) => splitVectors(record, this.vectors.embedders, i));
    this.edits++;
    const vectors = this.vectors;
    // A running compaction needs no word of replacements that append: the new version is appended after its
    // cursor, and copying it replaces the earlier copy by objectID. One made in place it must hear of.
    for (const { record, vectors: given } of split) {
      const previous = this.compaction === null && vectors.empty ? undefined : this.store.docOf(record.objectID);
      const doc = this.store.upsert(record);
      if (previous !== undefined && doc === previous) this.compaction?.replacedInPlace(doc, record);
      if (!vectors.empty) {
        if (previous !== undefined && doc !== previous) vectors.drop(previous);
        vectors.assign(doc, given);
      }
      yield;
    }
    this.maybeCompact(records.length * this.compactionPolicy.perWrite);
  }

  deleteObjects(objectIDs: string[]): void {
    this.edits++;
    for (const id of objectIDs) {
      if (typeof id !== 'string') continue;
      this.compaction?.forget(id);
      const doc = this.vectors.empty ? undefined : this.store.docOf(id);
      if (doc !== undefined) this.vectors.drop(doc);
      this.store.remove(id);
    }
    this.maybeCompact(objectIDs.length * this.compactionPolicy.perWrite);
  }

  clear(): void {
    this.edits++;
    this.compaction = null;
    this.store = this.emptyStore();
    this.vectors = new VectorStore(this.vectors.embedders);
    this.scanner = null;
    this.words.clear();
    this.results.clear();
  }

  /** A record by objectID, with its `_vectors` when it has any. */
  getObject(objectID: string): IndexRecord | undefined {
    const doc = this.store.docOf(objectID);
    return doc === undefined ? undefined : this.withVectors(this.store.records.get(doc), doc);
  }

  private withVectors(record: IndexRecord | undefined, doc: number): IndexRecord | undefined {
    return record === undefined || this.vectors.empty ? record : this.vectors.attach(record, doc);
  }

  /**
   * Up to `limit` live records without a vector of `embedder`, in id order (what a `rest` embedder still has to
   * embed), with their `_vectors` of other embedders; [] when every record has one (no scan: the counts say so).
   */
  vectorless(embedder: string, limit: number): IndexRecord[] {
    const column = this.vectors.column(embedder);
    if (column === undefined || column.count >= this.store.liveCount || limit <= 0) return [];
    const out: IndexRecord[] = [];
    this.store.all().forEach((doc) => {
      if (column.has(doc)) return true;
      const record = this.withVectors(this.store.records.get(doc), doc);
      if (record !== undefined) out.push(record);
      return out.length < limit;
    });
    return out;
  }

  /** Records holding a vector of `embedder` (0 for an unknown one). */
  vectorCount(embedder: string): number {
    return this.vectors.column(embedder)?.count ?? 0;
  }

  /**
   * The records of `objectIDs`, in order: undefined for missing ones and, with `options.extraFilter`, for those the
   * filter leaves out, as if absent (a restricted key reads by objectID only what its searches could find). The
   * filter is evaluated once for the whole list.
   */
  getObjects(objectIDs: readonly string[], options?: SearchOptions): Array<IndexRecord | undefined> {
    const filter = options?.extraFilter;
    if (filter === undefined) return objectIDs.map((id) => this.getObject(id));
    try {
      const { include, exclude } = evaluateFilterConjuncts(filter, this.store, queryBitsets);
      return objectIDs.map((id) => {
        const doc = this.store.docOf(id);
        if (doc === undefined || !include.every((set) => set.has(doc)) || exclude.some((set) => set.has(doc))) return undefined;
        return this.withVectors(this.store.records.get(doc), doc);
      });
    } finally {
      queryBitsets.releaseAll();
    }
  }

  *records(): IterableIterator<IndexRecord> {
    for (const record of this.store.records.values()) if (record !== undefined) yield this.vectors.empty ? record : this.vectors.attach(record, this.store.docOf(record.objectID)!);
  }

  setSynonyms(synonyms: SynonymHit[]): void {
    if (!Array.isArray(synonyms)) throw createEngineError('INVALID_PARAMETER', 'synonyms', 'expected an array');
    synonyms.forEach(validateSynonym);
    this.edits++;
    this.synonymHits = structuredClone(synonyms);
    this.synonymTable = null;
    this.words.clear();
    this.results.clear();
  }

  getSynonyms(): SynonymHit[] {
    return structuredClone(this.synonymHits);
  }

  /** Replaces every rule (validated first: on error nothing changes). */
  setRules(rules: Rule[]): void {
    this.edits++;
    this.rules.replaceAll(rules);
    this.results.clear();
  }

  /** Adds or replaces rules by objectID. */
  saveRules(rules: Rule[]): void {
    this.edits++;
    this.rules.save(rules);
    this.results.clear();
  }

  deleteRule(objectID: string): boolean {
    this.edits++;
    this.results.clear();
    return this.rules.delete(objectID);
  }

  clearRules(): void {
    this.edits++;
    this.rules.clear();
    this.results.clear();
  }

  getRule(objectID: string): Rule | undefined {
    return this.rules.get(objectID);
  }

  getRules(): Rule[] {
    return this.rules.all();
  }

  searchRules(params?: SearchRulesParams): SearchRulesResponse {
    return this.rules.search(params);
  }

  setDictionaries(dictionaries: Dictionaries): void {
    this.dictionaries = dictionaries;
    this.words.clear();
    this.results.clear();
  }

  search(params: SearchParams, settingsOverride?: IndexSettings, options?: SearchOptions): SearchResponse {
    const search = this.searchInSteps(params, settingsOverride, options);
    search.buildHits(Number.POSITIVE_INFINITY);
    return search.response;
  }

  searchInSteps(params: SearchParams, settingsOverride?: IndexSettings, options?: SearchOptions): SteppedSearch {
    const plan = this.rules.size === 0 ? null : this.planRules(params, options);
    // A key's forced parameters and hit cap win over the rules' consequences.
    const effective = plan === null ? params : withinKeyLimits(plan.params, options);
    // With rules, the key is what the rules made of the request plus which rules applied (validity may change
    // which ones do from one minute to the next).
    const baseKey = this.results.enabled ? resultKey(effective, settingsOverride, options) : null;
    const key = baseKey === null || plan === null ? baseKey : `${baseKey}\u0001${JSON.stringify(plan.applied)}`;
    if (this.compaction !== null && this.snapshotsInPieces === 0) this.maybeCompact(this.compactionPolicy.perSearch);
    if (key !== null) {
      const cached = this.results.get(key, this.store);
      // The key leaves out analytics parameters, which the `params` echo still shows.
      if (cached !== undefined) {
        return { response: { ...cached, params: encodeParams(params), processingTimeMS: 0 }, done: true, hitsToBuild: 0, recordBytesToBuild: 0, buildHits: () => {} };
      }
    }
    let executed: ExecutedSearch;
    try {
      executed = executeSearch(this.environment(), effective, settingsOverride, options, plan);
    } finally {
      this.endSearch();
    }
    const { response, dependencies, page } = executed;
    if (plan !== null) applyPlanToResponse(response, params, plan);
    const store = this.store;
    const version = store.version;
    // Kept only as the answer of the state it was computed from: after a write (or in a new store), it is stale.
    const offer = key === null ? null : (): void => {
      if (this.store === store && store.version === version) this.results.offer(key, response, dependencies, store);
    };
    return new PageInSteps(response, page, offer);
  }

  /**
   * Sets the budget of the result cache in estimated bytes (0 turns it off; see `search/result-cache.ts`).
   * Benchmarks against other engines turn it off, so that a repeated query measures the search, not the cache.
   */
  setResultCacheBytes(bytes: number): void {
    this.results.resize(bytes, this.store);
  }

  resultCacheStats(): ResultCacheStats {
    return this.results.stats();
  }

  searchForFacetValues(facetName: string, facetQuery: string, params: SearchParams = {}, options?: SearchOptions): SearchForFacetValuesResponse {
    try {
      return runFacetSearch(this.environment(), facetName, facetQuery, params, options);
    } finally {
      this.endSearch();
    }
  }

  browse(params: SearchParams & { cursor?: string }, options?: SearchOptions): BrowseResponse {
    try {
      return runBrowse(this.environment(), params, options);
    } finally {
      this.endSearch();
    }
  }

  /** After every search: the word cache back within its budget, the search's temporary bitsets back to the pool. */
  private endSearch(): void {
    this.words.trim();
    queryBitsets.releaseAll();
  }

  /** This moment in the index's record writes: a snapshot taken now holds the records as they are (`readRecordsFrom`). */
  recordsStamp(): RecordsStamp {
    return this.store.records.stamp();
  }

  /**
   * Reads from now on, from `snapshot` (the records section of a snapshot of this index taken at `stamp`), every
   * record unchanged since, instead of keeping it in memory (`RecordList.readFrom`). A snapshot written by
   * another copy of the index (`ids`: its objectIDs section) serves only the records it holds under the same
   * internal ids. Returns how many records are read from it.
   */
  readRecordsFrom(stamp: RecordsStamp, snapshot: { offsets: Uint32Array; source: RecordSource; ids?: { offsets: Uint32Array; bytes: Uint8Array } }): number {
    const { ids, offsets, source } = snapshot;
    const store = this.store;
    const sameRecord = ids === undefined ? undefined : (doc: number) => doc + 1 < ids.offsets.length && store.holdsObjectId(doc, ids.bytes, ids.offsets[doc], ids.offsets[doc + 1]);
    return this.store.records.readFrom(stamp, { offsets, source, sameRecord });
  }

  /** Records read from a snapshot rather than memory (`readRecordsFrom`). */
  get recordsOutOfMemory(): number {
    return this.store.records.recordsOutOfMemory;
  }

  saveSnapshot(options?: SnapshotOptions): Uint8Array {
    const w = new SnapshotWriter();
    for (const _pause of this.describeSnapshot(w, extraCustomRankings(options)));
    return w.finish();
  }

  /**
   * `saveSnapshot()`'s bytes in order, in pieces of at most a megabyte, for writing to a file without holding
   * the whole snapshot in memory; most pieces are views of the index's own arrays (no copy). A piece is valid
   * only until the next is asked for; an empty one is a pause in the work of describing the sections (each
   * step a few milliseconds at 100,000 records). Between two pieces the index may be searched (searches then
   * leave a running compaction where it is) but not written: the snapshot is of the state when the first piece
   * was asked for, and the next piece after a write throws.
   */
  *saveSnapshotInPieces(options?: SnapshotOptions): Generator<Uint8Array, void, void> {
    const extra = extraCustomRankings(options);
    const store = this.store;
    const version = store.version;
    const unchanged = (): void => {
      if (this.store !== store || store.version !== version) throw new Error('index written to while a snapshot of it was being taken');
    };
    const w = new SnapshotWriter();
    const pause = new Uint8Array(0);
    this.snapshotsInPieces++;
    try {
      for (const _pause of this.describeSnapshot(w, extra)) {
        yield pause;
        unchanged();
      }
      const pieces = w.pieces();
      for (let next = pieces.next(); !next.done; next = pieces.next()) {
        yield next.value;
        unchanged();
      }
    } finally {
      this.snapshotsInPieces--;
    }
  }

  /**
   * Gives `w` every section of the snapshot, pausing between the costlier ones; derived structures no search
   * built are built meanwhile (see `snapshot/derived.ts`).
   */
  private *describeSnapshot(w: SnapshotWriter, extra: SortSpec[][]): Generator<void, void, void> {
    w.json('settings', this.settings);
    w.json('synonyms', this.synonymHits);
    if (this.rules.size > 0) w.json('rules', this.rules.all());
    yield* this.store.save(w);
    yield;
    this.vectors.save(w);
    yield* describeDerived(this.store, w, parseCustomRanking(this.settings.customRanking), extra);
  }

  /**
   * Whether the snapshot this index was restored from holds every derived structure a snapshot of it with these
   * options would (false for an index not restored): a caller that would reuse that snapshot's file while the
   * index is unchanged (`contentVersion`) knows whether a start from it rebuilds some.
   */
  restoredSnapshotHolds(options?: SnapshotOptions): boolean {
    return this.restoredDerived !== null && holdsDerived(this.restoredDerived, parseCustomRanking(this.settings.customRanking), extraCustomRankings(options));
  }

  /** Internal: an index around a store restored from a snapshot (see `loadSnapshot`). */
  static restore(r: SnapshotReader): SearchIndex {
    const settings = r.json<IndexSettings>('settings');
    const index = new SearchIndex(settings);
    index.setSynonyms(r.json<SynonymHit[]>('synonyms'));
    // Snapshots from before rules existed have no such section.
    if (r.has('rules')) index.setRules(r.json<Rule[]>('rules'));
    const separators = typeof settings.separatorsToIndex === 'string' ? settings.separatorsToIndex : '';
    index.store = IndexStore.load(r, parseSearchableAttributes(settings.searchableAttributes), separators, parseAttributesForFaceting(settings.attributesForFaceting));
    index.vectors = VectorStore.load(r, parseEmbedders(settings.embedders), index.store.capacity);
    index.restoredDerived = restoreDerived(index.store, r, parseCustomRanking(settings.customRanking));
    return index;
  }

  /** The rules that apply to a search (null: none), with facet values for placeholders read lazily. */
  private planRules(params: SearchParams, options: SearchOptions | undefined): RulePlan | null {
    const separators = typeof this.settings.separatorsToIndex === 'string' ? this.settings.separatorsToIndex : '';
    if (this.synonymTable === null) this.synonymTable = compileSynonyms(this.synonymHits, separators);
    return this.rules.plan(params, { separators, synonyms: this.synonymTable, facetValues: (attribute) => this.facetValues(attribute, separators) }, options?.nowSeconds);
  }

  private facetValues(attribute: string, separators: string): FacetValues | undefined {
    const column = this.store.facets.get(attribute);
    if (column === undefined) return undefined;
    const cached = this.facetValueCache.get(attribute);
    if (cached !== undefined && cached.store === this.store && cached.labels === column.labels.length) return cached.values;
    const values: FacetValues = { byTerms: new Map(), maxWords: 0 };
    for (const label of column.labels) {
      const words = terms(label, separators);
      if (words.length === 0) continue;
      const joined = words.join(' ');
      if (!values.byTerms.has(joined)) values.byTerms.set(joined, label);
      values.maxWords = Math.max(values.maxWords, words.length);
    }
    this.facetValueCache.set(attribute, { store: this.store, labels: column.labels.length, values });
    return values;
  }

  /** Internal: the pieces a search needs, built lazily. */
  private environment(): SearchEnvironment {
    if (this.synonymTable === null) {
      this.synonymTable = compileSynonyms(this.synonymHits, typeof this.settings.separatorsToIndex === 'string' ? this.settings.separatorsToIndex : '');
    }
    if (this.scanner === null) this.scanner = new DocumentScanner(this.store.text);
    if (this.settledVersion !== this.store.version) {
      // First search after writes: group the new postings now rather than inside the first query using them.
      this.store.text.settle();
      this.settledVersion = this.store.version;
    }
    return {
      store: this.store,
      settings: this.settings,
      synonyms: this.synonymTable.size > 0 ? this.synonymTable : null,
      scanner: this.scanner,
      words: this.words,
      dictionaries: this.dictionaries,
      vectors: this.vectors,
    };
  }

  private emptyStore(): IndexStore {
    const separators = typeof this.settings.separatorsToIndex === 'string' ? this.settings.separatorsToIndex : '';
    return new IndexStore(parseSearchableAttributes(this.settings.searchableAttributes), separators, parseAttributesForFaceting(this.settings.attributesForFaceting));
  }

  /** Re-indexes every live record into a fresh store in one go (a settings change). Ids become dense again. */
  private rebuild(): void {
    this.compaction = null;
    const old = this.store;
    this.store = this.emptyStore();
    const moved = this.vectors.empty ? null : new Int32Array(old.capacity).fill(-1);
    old.records.forEach((record, doc) => {
      if (record === undefined) return;
      const next = this.store.upsert(record);
      if (moved !== null) moved[doc] = next;
    });
    if (moved !== null) this.vectors = this.vectors.remap((doc) => moved[doc]);
    this.scanner = null;
    this.words.clear();
    this.results.clear();
  }

  /** Starts a compaction when tombstones call for one, and advances a running one by `copies` records. */
  private maybeCompact(copies: number): void {
    if (this.compaction === null) {
      const { tombstones, liveCount } = this.store;
      if (tombstones < this.compactionPolicy.minTombstones || tombstones <= liveCount) return;
      this.compaction = new Compaction(this.store, this.emptyStore());
    }
    if (this.compaction.copy(Math.max(1, copies))) this.finishCompaction(this.compaction);
  }

  /** Swaps in the compacted store, with the customRanking order carried over rather than sorted again. */
  private finishCompaction(compaction: Compaction): void {
    const { old, next } = compaction;
    const specs = parseCustomRanking(this.settings.customRanking);
    if (specs.length > 0 && old.hasCached(customOrderKey(specs))) {
      const order = remapCustomOrder(customOrderFor(old, specs), (doc) => compaction.newIdOf(doc), next.capacity);
      if (order !== null) next.seed(customOrderKey(specs), order, customOrderDeps(next, specs));
    }
    this.store = next;
    if (!this.vectors.empty) this.vectors = this.vectors.remap((doc) => compaction.newIdOf(doc));
    this.compaction = null;
    this.compactions++;
    this.scanner = null;
    this.words.clear();
    this.results.clear();
  }
}


/**
 * What the applied rules add to a response: the request's own query and parameters echoed (not the rules'),
 * `userData`, `renderingContent` (the rules' keys over the settings'), `queryAfterRemoval` and, with
 * getRankingInfo, `appliedRules`.
 */
/** The customRanking lists of `options` parsed (an invalid one throws `INVALID_SETTING`, before anything is done). */
function extraCustomRankings(options: SnapshotOptions | undefined): SortSpec[][] {
  return (options?.customRankings ?? []).map((list) => parseCustomRanking(list));
}

function applyPlanToResponse(response: SearchResponse, params: SearchParams, plan: RulePlan): void {
  response.query = typeof params.query === 'string' ? params.query : '';
  response.params = encodeParams(params);
  if (plan.userData.length > 0) response.userData = plan.userData;
  if (plan.renderingContent !== undefined) response.renderingContent = { ...response.renderingContent, ...plan.renderingContent };
  if (plan.queryAfterRemoval !== undefined) response.queryAfterRemoval = plan.queryAfterRemoval;
  if (params.getRankingInfo === true) {
    response.appliedRules = plan.applied.map((objectID) => ({ objectID }));
  }
}

/**
 * A search whose hits are built when asked (`SteppedSearch`). A class, not an object literal with getters: each
 * such literal's accessor pair is allocated in the old generation and points at closures over the response, so
 * every young collection kept the search's hits alive and promoted them (37 % of what a search allocated,
 * whatever the young generation's size), and the copying made the engine's p99 (`bench/run.ts`, 100,000
 * products: 10–20 ms pauses against 0.3–0.5 ms searches).
 */
class PageInSteps implements SteppedSearch {
  private spentMs: number;

  constructor(
    readonly response: SearchResponse,
    private readonly page: PageHits,
    private readonly offer: (() => void) | null,
  ) {
    this.spentMs = response.processingTimeMS;
    if (page.remaining === 0) this.finish();
  }

  get done(): boolean {
    return this.page.remaining === 0;
  }

  get hitsToBuild(): number {
    return this.page.remaining;
  }

  get recordBytesToBuild(): number {
    return this.page.remainingBytes;
  }

  buildHits(count: number): void {
    if (this.page.remaining === 0) return;
    const started = performance.now();
    this.page.build(count, this.response.hits);
    this.spentMs += performance.now() - started;
    if (this.page.remaining === 0) this.finish();
  }

  private finish(): void {
    this.response.processingTimeMS = Math.round(this.spentMs);
    this.offer?.();
  }
}
