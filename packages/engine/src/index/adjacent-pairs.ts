/**
 * Which pairs of terms ever stand side by side in some document: a Bloom filter over (term, next term) pairs
 * of the forward index. Proximity uses it as a lower bound. When no term of one query word is ever directly
 * followed by a term of the next word (as with "x cm" in catalogue text like "120 x 60 cm"), no document can
 * have that pair of words closer than 2, so the proximity criterion's floor rises, and the floor-first placement
 * (`rank/order.ts`) finds the best documents among the first few it tests instead of keying every match.
 *
 * A false positive only leaves the floor where it was (correct, just slower), so the filter may be small; a
 * false negative would misorder results, so every pair at distance 0 or 1 is added, including two terms at the
 * same position (which `DocumentScanner.proximityOf` counts as distance 1, in either order). Deleted documents'
 * pairs stay (a weaker bound, never a wrong one).
 *
 * Rejected: an exact set of pairs (a hash table of 64-bit keys): at a million products of real text, millions of
 * distinct pairs, 16 bytes each; and positions in the postings (see the engine's design note).
 */
import type { TextIndex } from './text-index.ts';
import { POSITION_MASK, SLOT_SHIFT } from './text-index.ts';
import { infoReader } from './forward-index.ts';
import { NO_RECORD_READS, type IndexStore } from './store.ts';
import type { SnapshotReader, SnapshotWriter } from '../snapshot/format.ts';
import { createEngineError } from '../errors.ts';

const CACHE_KEY = 'adjacent-pairs';

/** The store's filter, built on first use (about a second at a million products) and extended after writes. */
export function adjacentPairsFor(store: IndexStore): AdjacentPairs {
  return store.cached(
    CACHE_KEY,
    () => AdjacentPairs.build(store.text),
    (previous) => previous.extend(store.text),
    // Built from the text index: a change in place never touches it.
    NO_RECORD_READS,
  );
}

/** Documents added per step when a snapshot builds the filter (about 1.2 us each at a million demo products). */
const DOCUMENTS_PER_STEP = 8192;

/**
 * Saves the filter with the index, so that a restored index does not rebuild it on its first query. When no
 * search built it (an import, a restart from a snapshot without it), it is built here in steps of documents,
 * yielding between them for a caller answering searches meanwhile, and kept in the store for them (a second
 * or so at a million products, once: writes extend it).
 */
export function* saveAdjacentPairs(store: IndexStore, w: SnapshotWriter, documentsPerStep = DOCUMENTS_PER_STEP): Generator<void, void, void> {
  if (!store.hasCached(CACHE_KEY)) {
    const pairs = yield* AdjacentPairs.buildInSteps(store.text, documentsPerStep);
    // A search between two steps may have built it meanwhile (the same filter): that one stays.
    if (!store.hasCached(CACHE_KEY)) store.seed(CACHE_KEY, pairs, NO_RECORD_READS);
  }
  adjacentPairsFor(store).save(w);
}

/** Seeds the store with a saved filter (snapshots without one rebuild it when first needed); whether there was one. */
export function restoreAdjacentPairs(store: IndexStore, r: SnapshotReader): boolean {
  if (!r.has('pairs.meta')) return false;
  store.seed(CACHE_KEY, AdjacentPairs.load(r, store.text.documentCount), NO_RECORD_READS);
  return true;
}

/** Bits per token of the forward index (two probes: about 2% false positives if every pair were distinct). */
const BITS_PER_TOKEN = 2;
const MIN_BITS_LOG = 16;
const MAX_BITS_LOG = 28;

export class AdjacentPairs {
  private readonly bits: Int32Array;
  private readonly shift: number;

  private constructor(
    bitsLog: number,
    /** Documents covered so far: `extend` adds the ones after. */
    private covered = 0,
  ) {
    this.bits = new Int32Array(1 << (bitsLog - 5));
    this.shift = 32 - bitsLog;
  }

  save(w: SnapshotWriter): void {
    w.json('pairs.meta', { bitsLog: 32 - this.shift, covered: this.covered });
    w.u32('pairs.bits', new Uint32Array(this.bits.buffer, this.bits.byteOffset, this.bits.length));
  }

  static load(r: SnapshotReader, documents: number): AdjacentPairs {
    const meta = r.json<{ bitsLog: number; covered: number }>('pairs.meta');
    const bits = r.u32('pairs.bits');
    const valid =
      Number.isInteger(meta?.bitsLog) && meta.bitsLog >= MIN_BITS_LOG && meta.bitsLog <= MAX_BITS_LOG && meta.covered === documents && bits.length === 1 << (meta.bitsLog - 5);
    if (!valid) throw createEngineError('INVALID_SNAPSHOT', 'adjacent pairs');
    const pairs = new AdjacentPairs(meta.bitsLog, meta.covered);
    // A copy: writes after the restore set bits, and the snapshot's bytes are not ours to change.
    pairs.bits.set(new Int32Array(bits.buffer, bits.byteOffset, bits.length));
    return pairs;
  }

  /** The pairs of every document of `text`. */
  static build(text: TextIndex): AdjacentPairs {
    const pairs = new AdjacentPairs(bitsLogFor(text.forward.length));
    pairs.addDocuments(text, 0);
    return pairs;
  }

  /** `build` in steps of `documentsPerStep` documents, yielding after each (the index unchanged meanwhile). */
  static *buildInSteps(text: TextIndex, documentsPerStep: number): Generator<void, AdjacentPairs, void> {
    const pairs = new AdjacentPairs(bitsLogFor(text.forward.length));
    const documents = text.documentCount;
    for (let from = 0; from < documents; from += documentsPerStep) {
      pairs.addDocuments(text, from, Math.min(documents, from + documentsPerStep));
      yield;
    }
    return pairs;
  }

  /** Adds the documents written since; a new filter when the forward index has outgrown this one. */
  extend(text: TextIndex): AdjacentPairs {
    if (bitsLogFor(text.forward.length) > 32 - this.shift + 1) return AdjacentPairs.build(text);
    this.addDocuments(text, this.covered);
    return this;
  }

  /** False when `first` is never followed by `second` (nor at the same position) in any document. */
  mayFollow(first: number, second: number): boolean {
    const h = mix(first, second);
    const a = h >>> this.shift;
    const b = Math.imul(h, 0x2c1b3c6d) >>> this.shift;
    return (this.bits[a >>> 5] & (1 << (a & 31))) !== 0 && (this.bits[b >>> 5] & (1 << (b & 31))) !== 0;
  }

  private add(first: number, second: number): void {
    const h = mix(first, second);
    const a = h >>> this.shift;
    const b = Math.imul(h, 0x2c1b3c6d) >>> this.shift;
    this.bits[a >>> 5] |= 1 << (a & 31);
    this.bits[b >>> 5] |= 1 << (b & 31);
  }

  /** Adds documents `from` to `to` (exclusive): the filter then covers every document below `to`. */
  private addDocuments(text: TextIndex, from: number, to = text.documentCount): void {
    const forward = text.forward;
    for (let doc = from; doc < to; doc++) {
      const terms = forward.termPages[forward.pageOf(doc)];
      const infos = forward.infoPages[forward.pageOf(doc)];
      const narrow = infoReader(infos);
      const end = forward.endOf(doc);
      for (let k = forward.firstOf(doc); k < end; k++) {
        const info = narrow === null ? infos[k] : narrow[infos[k]];
        const slot = info >>> SLOT_SHIFT;
        const position = info & POSITION_MASK;
        // Tokens come slot by slot, positions never decreasing within a slot: the neighbours are just after.
        for (let j = k + 1; j < end; j++) {
          const after = narrow === null ? infos[j] : narrow[infos[j]];
          if (after >>> SLOT_SHIFT !== slot) break;
          const next = after & POSITION_MASK;
          if (next > position + 1) break;
          this.add(terms[k], terms[j]);
          if (next === position) this.add(terms[j], terms[k]);
        }
      }
    }
    this.covered = to;
  }
}

function bitsLogFor(tokens: number): number {
  const wanted = Math.ceil(Math.log2(Math.max(1, tokens * BITS_PER_TOKEN)));
  return Math.min(MAX_BITS_LOG, Math.max(MIN_BITS_LOG, wanted));
}

function mix(first: number, second: number): number {
  let h = Math.imul(first, 0x9e3779b1) ^ second;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
