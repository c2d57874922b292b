/**
 * The per-document measurements the textual ranking criteria need, read from the forward index in one pass over
 * a document's tokens: per query word, its fewest typos and whether it matched exactly; the best
 * (attribute, position); the distance between consecutive query words; whether each quoted phrase occurs.
 *
 * Results land in scratch arrays indexed by document id and stamped with the query number, so a document is
 * scanned at most once per query however many criteria read it, and nothing is allocated per document. A
 * document's results sit side by side (one cache line), as do `proximityOf`'s stamp and memo: at a million
 * documents a bucket's documents are far apart, and each separate array would cost a cache miss per document.
 */
import type { TextIndex } from '../index/text-index.ts';
import { POSITION_MASK, SLOT_SHIFT, SOLE_BIT } from '../index/text-index.ts';
import { infoReader } from '../index/forward-index.ts';
import type { ExpandedWord } from '../query/expand.ts';

/** Distance between two query words that are not in the same attribute (Algolia's cap). */
export const MAX_PAIR_DISTANCE = 8;
/** Attribute key of a document where no word matched a searchable attribute. */
const NO_ATTRIBUTE = 0x7fffffff;
const UNMATCHED = 99;

export interface ScanOptions {
  /** Slots where a typo does not count as a match (`disableTypoToleranceOnAttributes`). */
  typoFreeSlots: Set<number>;
  /** Slots not searched by this query (`restrictSearchableAttributes`). */
  ignoredSlots: Set<number>;
  minProximity: number;
  /** `exactOnSingleWordQuery`: how the exact criterion is computed for one-word queries. */
  exactOnSingleWord: 'attribute' | 'word' | 'none';
}

/** Fields of a document's record in `cells` (CELL_SIZE per document). */
const STAMP = 0;
const TYPOS = 1;
const MATCHED = 2;
const PROXIMITY = 3;
const ATTRIBUTE = 4;
const EXACT = 5;
const VALID = 6;
const CELL_SIZE = 8;
/** Documents whose tokens `proximitiesOf` fetches together. */
const PREFETCH_BATCH = 16;

export class DocumentScanner {
  /** Per document: the query number it was scanned for, then its results (see the field offsets above). */
  private cells!: Int32Array;
  private query = 0;
  /** `proximityOf` results: per document, the query number then the value. */
  private proximityCells!: Int32Array;

  // Per-query tables: term id → a run of (word, typos, exact) entries, in descending word order. Run r (from 1)
  // is entries entryStart[r - 1] .. entryStart[r]. Typed and kept from query to query: a prefix of one or two
  // letters has hundreds of terms, and an entry each as objects was much of what ranking allocated.
  private termEntry = new Int32Array(0);
  /** The terms given a run by the current query (`touchedCount` of them), whose `termEntry` the next one clears. */
  private touched = new Int32Array(64);
  private touchedCount = 0;
  private entryWord = new Int32Array(64);
  private entryTypos = new Int32Array(64);
  private entryExact = new Uint8Array(64);
  private entryStart = new Int32Array(64);
  private wordCount = 0;
  private required: boolean[] = [];
  /** Per word (the first `wordCount` entries): its phrase (-1: none), the phrase's first word, 1 if it ends it. */
  private phraseOf = new Int32Array(8);
  private phraseStartOf = new Int32Array(8);
  private phraseLastWord = new Uint8Array(8);
  private phraseCount = 0;
  private slotRankKey: Int32Array = new Int32Array(0);
  private slotOrdered: Uint8Array = new Uint8Array(0);
  private typoFree: Uint8Array = new Uint8Array(0);
  private perWord = {
    bestTypo: new Int32Array(0),
    exactWord: new Uint8Array(0),
    lastSlot: new Int32Array(0),
    lastPos: new Int32Array(0),
    chain: new Int32Array(0),
    pairDistance: new Int32Array(0),
    phraseFound: new Uint8Array(0),
  };
  /** Per pair of consecutive words, the distance no document can beat (see `usePairFloors`). */
  private pairFloors = new Int32Array(0);
  private options: ScanOptions = { typoFreeSlots: new Set(), ignoredSlots: new Set(), minProximity: 1, exactOnSingleWord: 'attribute' };

  constructor(private readonly text: TextIndex) {
    this.allocateDocumentArrays(text.documentCount);
  }

  /** Fresh per-document arrays (zeroed stamps: no document is scanned for the current query). */
  private allocateDocumentArrays(size: number): void {
    this.cells = new Int32Array(size * CELL_SIZE);
    this.proximityCells = new Int32Array(size * 2);
  }

  /** Results of `scan(doc)` (call it first). Typos over the matched words. */
  typosAt(doc: number): number {
    return this.cells[doc * CELL_SIZE + TYPOS];
  }

  matchedWordsAt(doc: number): number {
    return this.cells[doc * CELL_SIZE + MATCHED];
  }

  proximityAt(doc: number): number {
    return this.cells[doc * CELL_SIZE + PROXIMITY];
  }

  attributeAt(doc: number): number {
    return this.cells[doc * CELL_SIZE + ATTRIBUTE];
  }

  exactAt(doc: number): number {
    return this.cells[doc * CELL_SIZE + EXACT];
  }

  /** 1 when every required word matched and every phrase was found. */
  validAt(doc: number): number {
    return this.cells[doc * CELL_SIZE + VALID];
  }

  /** Prepares for a new query. `required[i]` false marks optional words. */
  begin(words: ExpandedWord[], required: boolean[], options: ScanOptions): void {
    this.query++;
    // Stamps are signed 32-bit cells: wrap before they would turn negative.
    if (this.query === 0x7fffffff) {
      this.cells.fill(0);
      this.proximityCells.fill(0);
      this.query = 1;
    }
    this.ensureCapacity();
    this.options = options;
    for (let t = 0; t < this.touchedCount; t++) this.termEntry[this.touched[t]] = 0;
    this.wordCount = words.length;
    this.required = required;
    // Runs are numbered in the order their terms first appear; entryStart[r] first counts run r's entries.
    let runs = 0;
    let entries = 0;
    for (const word of words) {
      for (const alt of word.alternatives) {
        let run = this.termEntry[alt.termId];
        if (run === 0) {
          run = ++runs;
          this.termEntry[alt.termId] = run;
          if (runs > this.touched.length) this.touched = grownInt32(this.touched, runs);
          this.touched[runs - 1] = alt.termId;
          if (runs + 1 > this.entryStart.length) this.entryStart = grownInt32(this.entryStart, runs + 1);
          this.entryStart[run] = 0;
        }
        this.entryStart[run]++;
        entries++;
      }
    }
    this.touchedCount = runs;
    this.entryStart[0] = 0;
    for (let r = 1; r <= runs; r++) this.entryStart[r] += this.entryStart[r - 1];
    if (entries > this.entryWord.length) {
      const size = Math.max(entries, 2 * this.entryWord.length);
      this.entryWord = new Int32Array(size);
      this.entryTypos = new Int32Array(size);
      this.entryExact = new Uint8Array(size);
    }
    // Filled from each run's end, words in ascending order: a run ends up in descending word order, a word's
    // alternatives of the same term in their own order.
    for (let w = 0; w < words.length; w++) {
      const alternatives = words[w].alternatives;
      for (let a = alternatives.length - 1; a >= 0; a--) {
        const alt = alternatives[a];
        const j = --this.entryStart[this.termEntry[alt.termId]];
        this.entryWord[j] = w;
        this.entryTypos[j] = alt.typos;
        this.entryExact[j] = alt.exact ? 1 : 0;
      }
    }
    // Filling left entryStart[r] where run r begins: run r ends where run r + 1 begins.
    for (let r = 1; r <= runs; r++) this.entryStart[r] = r < runs ? this.entryStart[r + 1] : entries;
    this.phraseCount = 0;
    if (this.phraseOf.length < words.length) {
      const size = Math.max(words.length, 2 * this.phraseOf.length);
      this.phraseOf = new Int32Array(size);
      this.phraseStartOf = new Int32Array(size);
      this.phraseLastWord = new Uint8Array(size);
    }
    for (let i = 0; i < words.length; i++) {
      const phrase = words[i].word.phrase;
      this.phraseOf[i] = phrase;
      if (phrase >= 0) this.phraseCount = Math.max(this.phraseCount, phrase + 1);
      this.phraseStartOf[i] = phrase >= 0 && i > 0 && words[i - 1].word.phrase === phrase ? this.phraseStartOf[i - 1] : i;
      this.phraseLastWord[i] = phrase >= 0 && (i === words.length - 1 || words[i + 1].word.phrase !== phrase) ? 1 : 0;
    }
    const W = words.length;
    // Kept while the next query has as many words, phrases and slots (every scan overwrites what it reads).
    if (this.perWord.bestTypo.length !== W || this.perWord.phraseFound.length !== this.phraseCount) {
      this.perWord = {
        bestTypo: new Int32Array(W),
        exactWord: new Uint8Array(W),
        lastSlot: new Int32Array(W),
        lastPos: new Int32Array(W),
        chain: new Int32Array(W),
        pairDistance: new Int32Array(Math.max(0, W - 1)),
        phraseFound: new Uint8Array(this.phraseCount),
      };
      this.pairFloors = new Int32Array(Math.max(0, W - 1));
    }
    this.pairFloors.fill(options.minProximity);
    const slots = this.text.slots;
    if (this.slotRankKey.length !== slots.length) {
      this.slotRankKey = new Int32Array(slots.length);
      this.slotOrdered = new Uint8Array(slots.length);
      this.typoFree = new Uint8Array(slots.length);
    }
    for (let index = 0; index < slots.length; index++) {
      const slot = slots[index];
      this.slotRankKey[index] = slot.rank * 1000;
      this.slotOrdered[index] = slot.ordered ? 1 : 0;
      this.typoFree[index] = options.ignoredSlots.has(index) ? 2 : options.typoFreeSlots.has(index) ? 1 : 0;
    }
  }

  /**
   * Raises the distance below which `proximityOf` keeps reading a document, pair by pair, to what no document can
   * beat (words never side by side anywhere: see `index/adjacent-pairs.ts`). Call after `begin`, before any
   * `proximityOf` of the query.
   */
  usePairFloors(floors: ArrayLike<number>): void {
    for (let w = 0; w < this.pairFloors.length; w++) this.pairFloors[w] = Math.max(this.pairFloors[w], floors[w]);
  }

  /**
   * `proximityOf` for many documents (ascending ids), into `out`. The documents' tokens are far apart in
   * memory: reading the bounds, then the first and last token, of a batch of documents before measuring them
   * lets the processor fetch them all at once instead of one document after another.
   */
  proximitiesOf(docs: Uint32Array, out: Float64Array): void {
    const forward = this.text.forward;
    let sink = 0;
    for (let i0 = 0; i0 < docs.length; i0 += PREFETCH_BATCH) {
      const end = Math.min(docs.length, i0 + PREFETCH_BATCH);
      for (let i = i0; i < end; i++) {
        const doc = docs[i];
        const first = forward.firstOf(doc);
        const last = forward.endOf(doc) - 1;
        if (last >= first) {
          const page = forward.pageOf(doc);
          sink ^= forward.termPages[page][first] ^ forward.infoPages[page][first] ^ forward.termPages[page][last] ^ forward.infoPages[page][last];
        }
      }
      for (let i = i0; i < end; i++) out[i] = this.proximityOf(docs[i]);
    }
    this.sink = sink;
  }
  /** Keeps the prefetching reads of `proximitiesOf` from being optimised away. */
  private sink = 0;

  /**
   * Proximity alone, stopping as soon as every pair of consecutive words is as close as it can be
   * (`minProximity`, or the pair's floor): for most documents that is within their first attribute. Only valid when no attribute is
   * restricted (the full `scan` applies those rules).
   */
  proximityOf(doc: number): number {
    // Memoised: ordering a large bucket may ask twice (a walk for the documents at the best proximity, then keys).
    const memo = doc * 2;
    if (this.proximityCells[memo] === this.query) return this.proximityCells[memo + 1];
    const W = this.wordCount;
    const { lastSlot, lastPos, pairDistance, bestTypo } = this.perWord;
    lastSlot.fill(-1);
    pairDistance.fill(MAX_PAIR_DISTANCE);
    bestTypo.fill(UNMATCHED);
    const floors = this.pairFloors;
    let pending = W - 1;
    const forward = this.text.forward;
    const terms = forward.termPages[forward.pageOf(doc)];
    const infos = forward.infoPages[forward.pageOf(doc)];
    const narrow = infoReader(infos);
    const termEntry = this.termEntry;
    for (let k = forward.firstOf(doc), end = forward.endOf(doc); k < end && pending > 0; k++) {
      const entry = termEntry[terms[k]];
      if (entry === 0) continue;
      const info = narrow === null ? infos[k] : narrow[infos[k]];
      const slot = info >>> SLOT_SHIFT;
      const pos = info & POSITION_MASK;
      for (let j = this.entryStart[entry - 1]; j < this.entryStart[entry]; j++) {
        const w = this.entryWord[j];
        bestTypo[w] = 0;
        if (w > 0 && lastSlot[w - 1] === slot) {
          const d = Math.max(1, pos - lastPos[w - 1]);
          if (d < pairDistance[w - 1]) {
            if (pairDistance[w - 1] > floors[w - 1] && d <= floors[w - 1]) pending--;
            pairDistance[w - 1] = d;
          }
        }
        if (w < W - 1 && lastSlot[w + 1] === slot) {
          const d = pos - lastPos[w + 1] + 1;
          if (d < pairDistance[w]) {
            if (pairDistance[w] > floors[w] && d <= floors[w]) pending--;
            pairDistance[w] = d;
          }
        }
        lastSlot[w] = slot;
        lastPos[w] = pos;
      }
    }
    let proximity = 0;
    for (let w = 0; w + 1 < W; w++) {
      // A word not seen before stopping either is absent (optional) or every pair was already at the floor.
      if (pending > 0 && (bestTypo[w] === UNMATCHED || bestTypo[w + 1] === UNMATCHED)) continue;
      proximity += Math.max(pairDistance[w], this.options.minProximity);
    }
    this.proximityCells[memo] = this.query;
    this.proximityCells[memo + 1] = proximity;
    return proximity;
  }

  /** Scans `doc` unless already scanned for this query. */
  scan(doc: number): void {
    const cell = doc * CELL_SIZE;
    const cells = this.cells;
    if (cells[cell + STAMP] === this.query) return;
    cells[cell + STAMP] = this.query;
    const W = this.wordCount;
    const { bestTypo, exactWord, lastSlot, lastPos, chain, pairDistance, phraseFound } = this.perWord;
    bestTypo.fill(UNMATCHED);
    exactWord.fill(0);
    lastSlot.fill(-1);
    chain.fill(0);
    pairDistance.fill(MAX_PAIR_DISTANCE);
    phraseFound.fill(0);
    let attribute = NO_ATTRIBUTE;
    const forward = this.text.forward;
    const terms = forward.termPages[forward.pageOf(doc)];
    const infos = forward.infoPages[forward.pageOf(doc)];
    const narrow = infoReader(infos);
    const termEntry = this.termEntry;
    const singleWordAttribute = W === 1 && this.options.exactOnSingleWord === 'attribute';
    for (let k = forward.firstOf(doc), end = forward.endOf(doc); k < end; k++) {
      const entry = termEntry[terms[k]];
      if (entry === 0) continue;
      const info = narrow === null ? infos[k] : narrow[infos[k]];
      const slot = info >>> SLOT_SHIFT;
      const pos = info & POSITION_MASK;
      for (let j = this.entryStart[entry - 1]; j < this.entryStart[entry]; j++) {
        const w = this.entryWord[j];
        const typos = this.entryTypos[j];
        if (this.typoFree[slot] === 2 || (typos > 0 && this.typoFree[slot] === 1)) continue;
        if (typos < bestTypo[w]) bestTypo[w] = typos;
        if (this.entryExact[j] === 1 && (!singleWordAttribute || (info & SOLE_BIT) !== 0)) exactWord[w] = 1;
        const key = this.slotRankKey[slot] + (this.slotOrdered[slot] === 1 ? Math.min(pos, 999) : 0);
        if (key < attribute) attribute = key;
        if (w > 0 && lastSlot[w - 1] === slot) {
          const d = Math.max(1, pos - lastPos[w - 1]);
          if (d < pairDistance[w - 1]) pairDistance[w - 1] = d;
        }
        if (w < W - 1 && lastSlot[w + 1] === slot) {
          // The next query word came first: reversed order costs one more.
          const d = pos - lastPos[w + 1] + 1;
          if (d < pairDistance[w]) pairDistance[w] = d;
        }
        const phrase = this.phraseOf[w];
        if (phrase >= 0) {
          const first = this.phraseStartOf[w] === w;
          chain[w] = first ? 1 : lastSlot[w - 1] === slot && lastPos[w - 1] === pos - 1 && chain[w - 1] === w - this.phraseStartOf[w] ? chain[w - 1] + 1 : 0;
          if (this.phraseLastWord[w] === 1 && chain[w] === w - this.phraseStartOf[w] + 1) phraseFound[phrase] = 1;
        }
        lastSlot[w] = slot;
        lastPos[w] = pos;
      }
    }
    let typos = 0;
    let matched = 0;
    let exact = 0;
    let valid = 1;
    for (let w = 0; w < W; w++) {
      if (bestTypo[w] === UNMATCHED) {
        if (this.required[w]) valid = 0;
        continue;
      }
      matched++;
      typos += bestTypo[w];
      exact += exactWord[w];
    }
    for (let p = 0; p < this.phraseCount; p++) if (phraseFound[p] === 0) valid = 0;
    let proximity = 0;
    for (let w = 0; w + 1 < W; w++) {
      if (bestTypo[w] === UNMATCHED || bestTypo[w + 1] === UNMATCHED) continue;
      proximity += Math.max(pairDistance[w], this.options.minProximity);
    }
    if (this.options.exactOnSingleWord === 'none' && W === 1) exact = 0;
    cells[cell + TYPOS] = typos;
    cells[cell + MATCHED] = matched;
    cells[cell + PROXIMITY] = proximity;
    cells[cell + ATTRIBUTE] = attribute;
    cells[cell + EXACT] = exact;
    cells[cell + VALID] = valid;
  }

  private ensureCapacity(): void {
    const capacity = this.text.documentCount;
    const held = this.proximityCells.length / 2;
    if (held >= capacity && this.termEntry.length >= this.text.dict.size) return;
    if (held < capacity) this.allocateDocumentArrays(Math.max(capacity, held * 2));
    if (this.termEntry.length < this.text.dict.size) {
      const grown = new Int32Array(Math.max(this.text.dict.size, this.termEntry.length * 2));
      grown.set(this.termEntry);
      this.termEntry = grown;
    }
  }
}

/** A copy of `array` with room for at least `size` entries. */
function grownInt32(array: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(Math.max(size, 2 * array.length));
  grown.set(array);
  return grown;
}
