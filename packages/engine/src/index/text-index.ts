/**
 * The searchable text of every document, in two shapes:
 *
 * - **postings** (inverted): per term, the documents containing it, each with the term's best *attribute key*
 *   there (searchable-attribute rank × 1000 + position, see `rank/rules/attribute.ts`). New postings are
 *   appended to a tail (ids only grow, so the tail stays sorted); the tail is grouped by attribute key on demand,
 *   in levels of geometrically decreasing size (so that grouping after a small write costs only the new
 *   postings), and merged into the grouped base once it is an eighth of it. A word's documents (the match set) are the
 *   union of its terms' postings; the attribute criterion walks the groups best key first.
 * - **forward index**: per document, its tokens in attribute-rank order as two parallel arrays (term id, packed
 *   slot/position), in pages (`forward-index.ts`). Ranking reads it only for the documents it actually has to order (see `rank/`): proximity
 *   and phrases need every position, which would multiply the postings if stored there.
 */
import type { DocId } from '../structures/ids.ts';
import { GrowableUint32 } from '../structures/growable.ts';
import { Bitset, reservedWords, wordsFor } from '../structures/bitset.ts';
import { EMPTY_PARTITIONED, mergePartitioned, partition, type Partitioned } from './partitioned.ts';
import { forEachToken } from '../tokenize/index.ts';
import { TermDictionary } from './dictionary.ts';
import { ForwardIndex, POSITION_MASK, SOLE_BIT, SLOT_SHIFT } from './forward-index.ts';
import { parsePath, searchableTexts, topLevelAttributes } from './attributes.ts';
import type { SearchableSlot } from '../settings.ts';
import type { SnapshotReader, SnapshotWriter } from '../snapshot/format.ts';
import { createEngineError } from '../errors.ts';


/** Postings merged per step of `save` (a few milliseconds of work). */
const MERGE_POSTINGS_PER_STEP = 200_000;
export { POSITION_MASK, SOLE_BIT, SLOT_SHIFT } from './forward-index.ts';
const MAX_POSITION = POSITION_MASK;
/**
 * Shared placeholder for an empty per-term list (a term never a value on its own, most terms; a tail merged into
 * its base, every term after a snapshot or a load): never written, replaced by a list of its own on the first
 * push. Two lists of their own per term (a tail and its keys, 4 entries each: an object, a typed array, a buffer
 * and its allocation) were ~0.5 KB per term once the tails were merged.
 */
const EMPTY_GROWABLE = new GrowableUint32(4);

/** Each term's array, in term order, as bytes: a u32 snapshot section's pieces (`SnapshotWriter.u32Pieces`). */
function* termArrays(terms: number, arrayOf: (term: number) => Uint32Array): Generator<Uint8Array, void, void> {
  for (let t = 0; t < terms; t++) {
    const array = arrayOf(t);
    if (array.length > 0) yield new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  }
}

function scatter(docs: Uint32Array, set: Bitset): void {
  const words = set.words;
  for (let k = 0; k < docs.length; k++) {
    const doc = docs[k];
    words[doc >>> 5] |= 1 << (doc & 31);
  }
}
const MAX_SLOTS = 1 << 13;

/** Words a cached set holds: its whole buffer (reserved for growth), not just the words it uses yet. */
function heldWords(set: Bitset): number {
  return set.words.buffer.byteLength / 4;
}
/**
 * Terms in at least 1/DENSE_SHARE of the documents are OR-ed in as cached bitsets rather than set posting by
 * posting (a scattered write each). 1/64 answers the 1M benchmark mixes about 10% faster at p50 than 1/16; a
 * smaller share gains nothing more.
 */
const DENSE_SHARE = 64;
/**
 * Bound on the cached sets (64 MB of words; 35 MB for the 1M demo catalogue): up to 64 x (distinct terms per
 * document) terms can reach the share, too many to keep for long texts. Past it, terms are scattered.
 */
const MAX_DENSE_WORDS = 16 * 1024 * 1024;

/** A term's tail grouped so far (see `TextIndex.tailLevels`). */
interface TailLevels {
  /** Tail postings grouped so far. */
  covered: number;
  /** The base, then the tail's levels, oldest (largest) first. */
  all: Partitioned[];
}
/** Gap between the elements of an array, so that proximity never pairs words of different elements. */
const ELEMENT_GAP = 8;
/**
 * Catalogues repeat short values endlessly (brands, categories, colours): their tokenisation is cached, keyed by
 * the raw string, once a value is seen a second time (`seenOnce`). Bounded, and never evicted: the frequent
 * values are cached early. Caching every value at its first sighting filled the cache with product names seen
 * once, a typed array and a map entry each, for no speed (docs/PERFORMANCE.md, *Figures behind the code*).
 */
const MAX_CACHED_LENGTH = 96;
const MAX_CACHED_VALUES = 16_384;
/** Values seen once, awaiting a second sighting: forgotten all at once when this many wait. */
const MAX_SEEN_ONCE = 16_384;

export class TextIndex {
  readonly dict = new TermDictionary();
  /**
   * Recent postings per term id (the tail): documents ascending, with, in `tailKeys`, the term's best attribute
   * key in that document (rank × 1000 + position within an ordered attribute, 0 for unordered ones).
   */
  private tail: GrowableUint32[] = [];
  private tailKeys: GrowableUint32[] = [];
  /** Older postings per term, grouped by attribute key (see `partitioned.ts`). */
  private grouped: Partitioned[] = [];
  /**
   * The tail grouped by key, built on demand: levels covering the tail's first `covered` postings, each at
   * most half the size of the one before it. Postings appended since are grouped into a new level, merged into
   * the previous ones while that keeps them halving: amortised O(log tail) per posting, never O(tail) per write.
   */
  private tailLevels: Array<TailLevels | null> = [];
  /** Terms given postings since the last `settle` (each once: `touchedAt` holds the epoch it was listed in). */
  private touched: number[] = [];
  private touchedAt = new GrowableUint32(1024);
  private settleEpoch = 1;
  /**
   * Per term: documents where the term is a whole value on its own (for exactOnSingleWordQuery: attribute),
   * unless `soleEverywhere` says they are all its documents: codes, identifiers and most one-word values
   * (33,916 of the 34,910 terms with such documents in a 165,695-product import), whose lists of their own were
   * ~11 MB of the index for what its postings already hold.
   */
  private sole: GrowableUint32[] = [];
  /** Per term: 1 while every document holding the term has it as a whole value on its own (its list is empty). */
  private soleEverywhere = new GrowableUint32(1024);
  /** Per term: the document (+ 1) the term was last a whole value in. */
  private soleIn = new GrowableUint32(1024);
  /** Terms given a posting by the document being added. */
  private documentTerms: number[] = [];
  /** Bitsets of frequent terms, where OR-ing 32 documents per word beats setting them one by one. */
  private dense = new Map<number, { df: number; set: Bitset; tailLength: number }>();
  /** Words held by `dense`, buffers whole (bounded by `MAX_DENSE_WORDS`). */
  private denseWords = 0;
  /** Per term: the last document appended, + 1 (dedupes a term repeated within one document). */
  private lastDoc = new GrowableUint32(1024);
  /** Per document, its tokens (see `ForwardIndex`). */
  forward = new ForwardIndex();
  /** Explicit slots, or slots discovered from records when searchableAttributes is not set (all rank 0). */
  readonly slots: SearchableSlot[];
  private readonly valueCache = new Map<string, Uint32Array>();
  private readonly seenOnce = new Set<string>();
  private readonly slotByAttribute = new Map<string, number>();
  /** Slots discovered from records (searchableAttributes not set): any attribute may become searchable. */
  readonly dynamic: boolean;

  constructor(
    configured: SearchableSlot[] | null,
    readonly separatorsToIndex: string,
  ) {
    this.dynamic = configured === null;
    this.slots = configured ? configured.slice(0, MAX_SLOTS) : [];
    this.slots.forEach((slot, index) => this.slotByAttribute.set(slot.attribute, index));
  }

  get documentCount(): number {
    return this.forward.documentCount;
  }

  /** Indexes the next document; `doc` must equal `documentCount` (ids are dense and increasing). */
  add(doc: DocId, record: Record<string, unknown> | undefined): void {
    if (doc !== this.documentCount) throw new Error(`text index out of step: ${doc} vs ${this.documentCount}`);
    if (record !== undefined) {
      if (this.dynamic) this.discoverSlots(record);
      for (let slot = 0; slot < this.slots.length; slot++) this.addSlot(doc, slot, record);
    }
    this.noteSoleValues(doc);
    this.forward.endDocument();
  }

  /** Once a document is indexed: where each of its terms stands with `soleEverywhere` and the sole lists. */
  private noteSoleValues(doc: number): void {
    for (const termId of this.documentTerms) {
      const sole = this.soleIn.data[termId] === doc + 1;
      if (this.documentFrequency(termId) === 1) {
        this.soleEverywhere.data[termId] = sole ? 1 : 0;
      } else if (this.soleEverywhere.data[termId] === 1) {
        if (!sole) {
          // The first document where it is not: every earlier one goes to a list of its own.
          this.soleEverywhere.data[termId] = 0;
          const earlier = this.postingsInOrder(termId);
          this.sole[termId] = GrowableUint32.from(earlier.subarray(0, earlier.length - 1));
        }
      } else if (sole) {
        let list = this.sole[termId];
        if (list === EMPTY_GROWABLE) this.sole[termId] = list = new GrowableUint32(4);
        list.push(doc);
      }
    }
    this.documentTerms = [];
  }

  /** The term's documents, ascending (its grouped postings are in key order). */
  private postingsInOrder(termId: number, into?: Uint32Array): Uint32Array {
    const grouped = this.grouped[termId].docs;
    const tail = this.tail[termId].view();
    const length = grouped.length + tail.length;
    const docs = into !== undefined && into.length >= length ? into.subarray(0, length) : new Uint32Array(length);
    docs.set(grouped);
    docs.subarray(0, grouped.length).sort();
    docs.set(tail, grouped.length);
    return docs;
  }

  /**
   * The documents where the term is a whole value on its own, ascending. Where that is every document holding
   * it (`soleEverywhere`), the list is built, in `scratch` when it is long enough.
   */
  private soleDocuments(termId: number, scratch?: Uint32Array): Uint32Array {
    return this.soleEverywhere.data[termId] === 1 ? this.postingsInOrder(termId, scratch) : this.sole[termId].view();
  }

  /** Number of documents containing the term (deleted ones included). */
  documentFrequency(termId: number): number {
    return this.grouped[termId].docs.length + this.tail[termId].length;
  }

  /** Adds the documents containing `termId` to `set` (deleted ones included: callers mask with live documents). */
  orInto(termId: number, set: Bitset): void {
    const df = this.documentFrequency(termId);
    if (df * DENSE_SHARE >= set.capacity && set.capacity >= 4096) {
      const dense = this.denseBitset(termId, df, set.capacity);
      if (dense !== null) {
        set.or(dense);
        return;
      }
    }
    scatter(this.grouped[termId].docs, set);
    scatter(this.tail[termId].view(), set);
  }

  /** Adds the documents where `termId` is a whole value on its own to `set`. */
  orSoleInto(termId: number, set: Bitset): void {
    if (this.soleEverywhere.data[termId] === 1) this.orInto(termId, set);
    else scatter(this.sole[termId].view(), set);
  }

  /** The term's postings grouped by attribute key: the older ones first, then the tail's levels (if any). */
  groups(termId: number): readonly Partitioned[] {
    if (this.tailDue(termId)) this.mergeTail(termId);
    const tail = this.tail[termId];
    if (tail.length === 0) return [this.grouped[termId]];
    let levels = this.tailLevels[termId];
    if (levels === null) this.tailLevels[termId] = levels = { covered: 0, all: [this.grouped[termId]] };
    if (levels.covered < tail.length) this.groupTail(termId, levels);
    return levels.all;
  }

  /** Groups the postings appended since the last call into a new level, then restores the halving sizes. */
  private groupTail(termId: number, levels: TailLevels): void {
    const all = levels.all;
    all.push(partition(this.tail[termId].view().subarray(levels.covered), this.tailKeys[termId].view().subarray(levels.covered)));
    levels.covered = this.tail[termId].length;
    // all[0] is the base: only the tail's levels (index 1 on) merge.
    while (all.length >= 3 && all[all.length - 1].docs.length * 2 >= all[all.length - 2].docs.length) {
      const newer = all.pop() as Partitioned;
      all[all.length - 1] = mergePartitioned(all[all.length - 1], newer);
    }
  }

  /**
   * Whether the term's tail has grown to an eighth of its base: merging then is amortised O(1) per posting, as
   * the base at least doubles each time.
   */
  private tailDue(termId: number): boolean {
    const length = this.tail[termId].length;
    return length > 0 && length * 8 >= this.grouped[termId].docs.length;
  }

  private mergeTail(termId: number): void {
    this.grouped[termId] = partition(this.tail[termId].view(), this.tailKeys[termId].view(), this.grouped[termId]);
    this.tail[termId] = EMPTY_GROWABLE;
    this.tailKeys[termId] = EMPTY_GROWABLE;
    this.tailLevels[termId] = null;
  }

  /**
   * Merges now the tails written since the last call that have grown to an eighth of their base (after a bulk
   * load, so that the first queries do not pay for it). Only those terms, and only those merges: a small write
   * costs its own postings whatever the dictionary size, and small tails are grouped when a query needs them.
   */
  settle(): void {
    for (const t of this.touched) if (this.tailDue(t)) this.mergeTail(t);
    this.touched = [];
    this.settleEpoch++;
    // After a bulk load the document offsets may hold up to half their capacity in slack: give it back.
    this.forward.trim();
  }

  /**
   * Writes the index into a snapshot (every tail merged first, so only grouped postings are stored), pausing
   * every `MERGE_POSTINGS_PER_STEP` postings merged: after an import the merges of a large index are the
   * longest part of describing it, and the caller answers searches between steps.
   */
  *save(w: SnapshotWriter): Generator<void, void, void> {
    let merged = 0;
    for (let t = 0; t < this.tail.length; t++) {
      if (this.tail[t].length === 0) continue;
      merged += this.tail[t].length + this.grouped[t].docs.length;
      this.mergeTail(t);
      if (merged >= MERGE_POSTINGS_PER_STEP) {
        merged = 0;
        yield;
      }
    }
    // Nothing left to merge: the settling epoch ends. The forward index keeps its slack (trimming copies it,
    // every snapshot of an import under way, only for the next writes to grow it again).
    this.touched = [];
    this.settleEpoch++;
    const terms = this.dict.terms;
    const T = terms.length;
    const docOffsets = new Uint32Array(T + 1);
    const groupOffsets = new Uint32Array(T + 1);
    const soleOffsets = new Uint32Array(T + 1);
    for (let t = 0; t < T; t++) {
      docOffsets[t + 1] = docOffsets[t] + this.grouped[t].docs.length;
      groupOffsets[t + 1] = groupOffsets[t] + this.grouped[t].keys.length;
      soleOffsets[t + 1] = soleOffsets[t] + (this.soleEverywhere.data[t] === 1 ? this.grouped[t].docs.length : this.sole[t].length);
    }
    // The postings go to the snapshot term by term, without a copy of their own.
    const grouped = this.grouped;
    w.json('text.meta', { terms, slots: this.slots.map(({ attribute, rank, ordered }) => ({ attribute, rank, ordered })), dynamic: this.dynamic });
    w.u32Pieces('text.docs', docOffsets[T] * 4, () => termArrays(T, (t) => grouped[t].docs));
    w.u32('text.docOffsets', docOffsets);
    w.u32Pieces('text.keys', groupOffsets[T] * 4, () => termArrays(T, (t) => grouped[t].keys));
    w.u32Pieces('text.ends', groupOffsets[T] * 4, () => termArrays(T, (t) => grouped[t].starts.subarray(1)));
    w.u32('text.groupOffsets', groupOffsets);
    // As lists, whichever way they are held (a list as long as the postings is read back as `soleEverywhere`).
    // The lists of terms flagged `soleEverywhere` are built as written, each in one buffer reused from term to
    // term (a piece is valid until the next is asked for, `SnapshotWriter.pieces`): a list of its own per term
    // was as large as those terms' postings, garbage outside the heap until the next collection, at the end of
    // each snapshot during an import.
    let scratch = new Uint32Array(0);
    w.u32Pieces('text.sole', soleOffsets[T] * 4, () =>
      termArrays(T, (t) => {
        const length = soleOffsets[t + 1] - soleOffsets[t];
        if (this.soleEverywhere.data[t] === 1 && length > scratch.length) scratch = new Uint32Array(Math.max(length, 2 * scratch.length, 1024));
        return this.soleDocuments(t, scratch);
      }),
    );
    w.u32('text.soleOffsets', soleOffsets);
    const forward = this.forward;
    const tokens = forward.length;
    w.u32Pieces('text.fwdTerms', tokens * 4, () => forward.termPieces(tokens), { grows: true });
    w.u32Pieces('text.fwdInfo', tokens * 4, () => forward.infoPieces(tokens), { grows: true });
    w.u32('text.docStart', forward.docStart.view(), { grows: true });
  }

  /** Rebuilds an index saved by `save`, for `documents` document ids. */
  static load(r: SnapshotReader, separatorsToIndex: string, documents: number): TextIndex {
    const meta = r.json<{ terms: string[]; slots: Array<{ attribute: string; rank: number; ordered: boolean }>; dynamic: boolean }>('text.meta');
    if (!Array.isArray(meta?.terms) || !Array.isArray(meta.slots)) throw createEngineError('INVALID_SNAPSHOT', 'text index metadata');
    const slots = meta.slots.map((slot) => ({ ...slot, path: parsePath(slot.attribute) }));
    const text = new TextIndex(meta.dynamic ? null : slots, separatorsToIndex);
    if (meta.dynamic) {
      slots.forEach((slot, index) => {
        text.slots.push(slot);
        text.slotByAttribute.set(slot.attribute, index);
      });
    }
    const T = meta.terms.length;
    const docs = r.u32('text.docs');
    const docOffsets = r.u32('text.docOffsets');
    const keys = r.u32('text.keys');
    const ends = r.u32('text.ends');
    const groupOffsets = r.u32('text.groupOffsets');
    const sole = r.u32('text.sole');
    const soleOffsets = r.u32('text.soleOffsets');
    const consistent =
      docOffsets.length === T + 1 && groupOffsets.length === T + 1 && soleOffsets.length === T + 1 &&
      docOffsets[T] === docs.length && groupOffsets[T] === keys.length && keys.length === ends.length && soleOffsets[T] === sole.length;
    if (!consistent) throw createEngineError('INVALID_SNAPSHOT', 'postings tables do not match');
    for (let t = 0; t < T; t++) {
      if (text.dict.intern(meta.terms[t]) !== t) throw createEngineError('INVALID_SNAPSHOT', 'duplicate term');
      const g0 = groupOffsets[t];
      const g1 = groupOffsets[t + 1];
      const starts = new Uint32Array(g1 - g0 + 1);
      starts.set(ends.subarray(g0, g1), 1);
      if (g1 > g0 && starts[g1 - g0] !== docOffsets[t + 1] - docOffsets[t]) throw createEngineError('INVALID_SNAPSHOT', 'postings groups do not match');
      text.grouped.push({ docs: docs.subarray(docOffsets[t], docOffsets[t + 1]), keys: keys.subarray(g0, g1), starts });
      text.tail.push(EMPTY_GROWABLE);
      text.tailKeys.push(EMPTY_GROWABLE);
      text.tailLevels.push(null);
      const soleCount = soleOffsets[t + 1] - soleOffsets[t];
      // A term's sole documents are among its documents: as many means all of them.
      const everywhere = soleCount > 0 && soleCount === docOffsets[t + 1] - docOffsets[t];
      text.sole.push(soleCount > 0 && !everywhere ? GrowableUint32.wrap(sole.subarray(soleOffsets[t], soleOffsets[t + 1])) : EMPTY_GROWABLE);
      text.soleEverywhere.push(everywhere ? 1 : 0);
    }
    text.soleIn = GrowableUint32.zeroed(T);
    text.lastDoc = GrowableUint32.zeroed(T);
    text.touchedAt = GrowableUint32.zeroed(T);
    const docStart = r.growableU32('text.docStart');
    const fwdTerms = r.growableU32('text.fwdTerms');
    const fwdInfo = r.growableU32('text.fwdInfo');
    if (docStart.length !== documents + 1 || fwdTerms.length !== fwdInfo.length || docStart.data[documents] !== fwdTerms.length) {
      throw createEngineError('INVALID_SNAPSHOT', 'forward index does not match the records');
    }
    text.forward = ForwardIndex.restore(fwdTerms, fwdInfo, docStart);
    return text;
  }

  /**
   * The term's documents as a cached bitset, or null once the cache is full. After writes, a cached set is
   * brought up to date in place from the postings appended to the term's tail since (new documents only: ids
   * only grow). A tail merged meanwhile starts over empty, so it then holds fewer postings than were added
   * since: that case rebuilds.
   */
  private denseBitset(termId: number, df: number, capacity: number): Bitset | null {
    const cached = this.dense.get(termId);
    const tail = this.tail[termId];
    if (cached !== undefined) {
      if (cached.df === df && cached.set.capacity === capacity) return cached.set;
      if (cached.set.capacity <= capacity && tail.length - cached.tailLength === df - cached.df) {
        this.denseWords -= heldWords(cached.set);
        cached.set = cached.set.grownTo(capacity);
        this.denseWords += heldWords(cached.set);
        scatter(tail.view().subarray(cached.tailLength), cached.set);
        cached.df = df;
        cached.tailLength = tail.length;
        return cached.set;
      }
      this.denseWords -= heldWords(cached.set);
      this.dense.delete(termId);
    }
    if (this.denseWords + reservedWords(wordsFor(capacity)) > MAX_DENSE_WORDS) return null;
    const set = Bitset.growable(capacity);
    scatter(this.grouped[termId].docs, set);
    scatter(tail.view(), set);
    this.dense.set(termId, { df, set, tailLength: tail.length });
    this.denseWords += heldWords(set);
    return set;
  }

  slotRank(slot: number): number {
    return this.slots[slot].rank;
  }

  private discoverSlots(record: Record<string, unknown>): void {
    for (const attribute of topLevelAttributes(record)) {
      if (this.slotByAttribute.has(attribute) || this.slots.length >= MAX_SLOTS) continue;
      this.slotByAttribute.set(attribute, this.slots.length);
      this.slots.push({ attribute, path: parsePath(attribute), rank: 0, ordered: true });
    }
  }

  private addSlot(doc: number, slot: number, record: Record<string, unknown>): void {
    const texts = searchableTexts(record, this.slots[slot].path);
    this.currentDoc = doc;
    this.currentSlot = slot << SLOT_SHIFT;
    this.slotKeyBase = this.slots[slot].rank * 1000;
    this.slotOrdered = this.slots[slot].ordered;
    this.base = 0;
    const forward = this.forward;
    for (const text of texts) {
      const first = forward.length;
      this.lastPosition = -1;
      const cached = text.length <= MAX_CACHED_LENGTH ? this.valueCache.get(text) : undefined;
      if (cached !== undefined) {
        for (let k = 0; k < cached.length; k += 2) this.addToken(cached[k], cached[k + 1]);
      } else {
        forEachToken(text, this.separatorsToIndex, this.visitToken);
        if (text.length <= MAX_CACHED_LENGTH && this.valueCache.size < MAX_CACHED_VALUES && this.secondSighting(text)) {
          const pairs = new Uint32Array(2 * (forward.length - first));
          for (let k = first; k < forward.length; k++) {
            pairs[2 * (k - first)] = forward.openTerm(k);
            pairs[2 * (k - first) + 1] = forward.openInfo(k) & POSITION_MASK;
          }
          // Positions are stored relative to the value (the base is added back on reuse).
          for (let k = 1; k < pairs.length; k += 2) pairs[k] -= Math.min(this.base, pairs[k]);
          this.valueCache.set(text, pairs);
        }
      }
      const count = forward.length - first;
      // A value made of a single word: what `exactOnSingleWordQuery: attribute` calls an exact match.
      if (count === 1) {
        forward.setOpenInfo(first, (forward.openInfo(first) | SOLE_BIT) >>> 0);
        this.markSole(forward.openTerm(first));
      }
      if (this.lastPosition >= 0) this.base += this.lastPosition + 1 + ELEMENT_GAP;
    }
  }

  /** True when `text` was seen once before (it is then cached); else it is noted as seen. */
  private secondSighting(text: string): boolean {
    if (this.seenOnce.delete(text)) return true;
    if (this.seenOnce.size >= MAX_SEEN_ONCE) this.seenOnce.clear();
    this.seenOnce.add(text);
    return false;
  }

  // State of the token visitor, as fields so that one bound function serves every call (no closure per value).
  private currentDoc = 0;
  private currentSlot = 0;
  private slotKeyBase = 0;
  private slotOrdered = true;
  private base = 0;
  private lastPosition = -1;
  private readonly visitToken = (term: string, position: number): void => {
    const termId = this.dict.intern(term);
    if (termId === this.tail.length) {
      this.tail.push(EMPTY_GROWABLE);
      this.tailKeys.push(EMPTY_GROWABLE);
      this.grouped.push(EMPTY_PARTITIONED);
      this.tailLevels.push(null);
      this.sole.push(EMPTY_GROWABLE);
      this.soleEverywhere.push(0);
      this.soleIn.push(0);
      this.lastDoc.reserve(termId + 1);
      this.lastDoc.length = termId + 1;
      this.touchedAt.reserve(termId + 1);
      this.touchedAt.length = termId + 1;
    }
    this.addToken(termId, position);
  };

  private addToken(termId: number, position: number): void {
    const doc = this.currentDoc;
    const absolute = Math.min(this.base + position, MAX_POSITION);
    const key = this.slotKeyBase + (this.slotOrdered ? Math.min(absolute, 999) : 0);
    if (this.lastDoc.data[termId] !== doc + 1) {
      this.lastDoc.data[termId] = doc + 1;
      this.documentTerms.push(termId);
      let tail = this.tail[termId];
      if (tail === EMPTY_GROWABLE) {
        this.tail[termId] = tail = new GrowableUint32(4);
        this.tailKeys[termId] = new GrowableUint32(4);
      }
      tail.push(doc);
      this.tailKeys[termId].push(key);
      if (this.touchedAt.data[termId] !== this.settleEpoch) {
        this.touchedAt.data[termId] = this.settleEpoch;
        this.touched.push(termId);
      }
    } else {
      const keys = this.tailKeys[termId];
      if (key < keys.data[keys.length - 1]) keys.data[keys.length - 1] = key;
    }
    this.forward.push(termId, (this.currentSlot | absolute) >>> 0);
    this.lastPosition = position;
  }

  /** Records that `termId` is a whole value on its own in the current document (`noteSoleValues` files it). */
  private markSole(termId: number): void {
    this.soleIn.data[termId] = this.currentDoc + 1;
  }
}
