/**
 * The forward index: per document, its tokens in attribute-rank order as two parallel arrays (term id, packed
 * slot/position), kept in pages that never move once written.
 *
 * Why pages: one flat pair of arrays doubled as the index grew, and each doubling copied the whole index while
 * its thread waited. At 100,000 products the copy to 16M entries (2 × 64 MB of fresh memory) held a write for
 * 300–800 ms on this kind of machine, whose page faults are slow, on every copy of the index (docs/PERFORMANCE.md,
 * import through the console). A new page is a fresh array of at most `MAX_PAGE_ENTRIES`; nothing is copied but
 * the tokens of the document being written when its page fills (a document never straddles two pages, so a
 * reader finds a document's tokens in one array).
 *
 * Positions are global and contiguous: tokens of document d are [docStart[d], docStart[d + 1]), in page
 * `docPage[d]`, at those positions minus the page's `pageBase`. A snapshot stores the pages end to end (the
 * same sections as one flat array); a restored index is one page, the loaded arrays, extended in place.
 */
import { GrowableUint32 } from '../structures/growable.ts';

/** Packed token info: position in bits 0–17, "sole word of its value" in bit 18, slot in bits 19–31. */
export const POSITION_MASK = 0x3ffff;
export const SOLE_BIT = 1 << 18;
export const SLOT_SHIFT = 19;

/**
 * Narrow pages: 2 bytes a term id and 2 an info instead of 4 and 4, while every token of the page fits: a term
 * id below 65,536, and an info of a slot below 32 and a position below 1,024, packed as slot in bits 11–15,
 * the sole bit in bit 10, the position in bits 0–9. A token that does not fit widens its page's array (a copy of
 * the page, once). The forward index was most of an index's memory (81 MB of a 165,695-product import with
 * every attribute searchable: 10 million tokens), and catalogues mostly fit: tens of thousands of terms, a few
 * dozen attributes, values of a few hundred words.
 */
const NARROW_SLOT_SHIFT = 11;
const NARROW_SOLE_BIT = 1 << 10;
const NARROW_POSITION_MASK = 0x3ff;
/** A narrow info (the array's index) in the packed layout above. */
export const WIDE_INFO: Uint32Array = (() => {
  const table = new Uint32Array(1 << 16);
  for (let narrow = 0; narrow < table.length; narrow++) {
    const sole = (narrow & NARROW_SOLE_BIT) !== 0 ? SOLE_BIT : 0;
    table[narrow] = (((narrow >>> NARROW_SLOT_SHIFT) << SLOT_SHIFT) | sole | (narrow & NARROW_POSITION_MASK)) >>> 0;
  }
  return table;
})();

/** `info` in the narrow layout, or -1 when it does not fit. */
function narrowInfo(info: number): number {
  const slot = info >>> SLOT_SHIFT;
  const position = info & POSITION_MASK;
  if (slot >= 32 || position > NARROW_POSITION_MASK) return -1;
  return (slot << NARROW_SLOT_SHIFT) | ((info & SOLE_BIT) !== 0 ? NARROW_SOLE_BIT : 0) | position;
}

/** A page's term ids or infos: narrow until a token does not fit. */
export type PageArray = Uint16Array | Uint32Array;

/**
 * The page's infos in the packed layout: `infos[k]` as is for a wide page, through `WIDE_INFO` for a narrow one.
 * Undefined (a document whose page the forward index does not hold) reads as wide: its loops read no token.
 */
export function infoReader(infos: PageArray | undefined): Uint32Array | null {
  return infos !== undefined && infos.BYTES_PER_ELEMENT === 2 ? WIDE_INFO : null;
}

/** A page's info at `k`, in the packed layout (off the hot paths, which hoist `infoReader`). */
function infoAt(infos: PageArray, k: number): number {
  return infos.BYTES_PER_ELEMENT === 2 ? WIDE_INFO[infos[k]] : infos[k];
}

/** The first `length` infos of a page, in the packed layout (into `into` when given: its first `length`). */
function wideInfos(infos: PageArray, length: number, into?: Uint32Array): Uint32Array {
  if (infos.BYTES_PER_ELEMENT === 4) return infos.subarray(0, length) as Uint32Array;
  const wide = into ?? new Uint32Array(length);
  for (let k = 0; k < length; k++) wide[k] = WIDE_INFO[infos[k]];
  return wide;
}

/** The first `length` term ids of a page as 32-bit words (into `into`: its first `length`). */
function wideTerms(terms: PageArray, length: number, into: Uint32Array): Uint32Array {
  if (terms.BYTES_PER_ELEMENT === 4) return terms as Uint32Array;
  into.set(terms.subarray(0, length));
  return into;
}

/** Entries of the first page (a small index stays small); pages double up to the largest. */
const MIN_PAGE_ENTRIES = 1 << 10;
/** Entries of a full-size page: 4 MB per array. */
export const MAX_PAGE_ENTRIES = 1 << 20;

export class ForwardIndex {
  /** Per page, the term ids of its tokens (entries past the page's used part are room); narrow or wide. */
  readonly termPages: PageArray[] = [];
  /**
   * Per page, the packed slot/position of its tokens (same layout as `termPages`); a narrow page's through
   * `infoReader` (`WIDE_INFO`).
   */
  readonly infoPages: PageArray[] = [];
  /** Per page, the global position of its first entry. */
  readonly pageBase: number[] = [];
  /** Per document, the global position of its first token; one more entry: the end (where the next starts). */
  docStart: GrowableUint32;
  /** Per document, the page holding its tokens. */
  docPage: GrowableUint32;
  /** Tokens written, in all (global position of the next one). */
  length: number;

  /** `pages`: page sizes in entries (tests use small ones to cross many pages). */
  constructor(private readonly pages: { min: number; max: number } = { min: MIN_PAGE_ENTRIES, max: MAX_PAGE_ENTRIES }) {
    this.termPages.push(new Uint16Array(pages.min));
    this.infoPages.push(new Uint16Array(pages.min));
    this.pageBase.push(0);
    this.docStart = new GrowableUint32(1024);
    this.docStart.push(0);
    this.docPage = new GrowableUint32(1024);
    this.length = 0;
  }

  /**
   * An index whose tokens are `terms` and `infos` (their first `length` entries; the rest is room to grow in
   * place, see `GrowableUint32.adopt`), documents bounded by `docStart`: one page.
   */
  static restore(terms: GrowableUint32, infos: GrowableUint32, docStart: GrowableUint32, pages?: { min: number; max: number }): ForwardIndex {
    const index = new ForwardIndex(pages);
    // Pushes write up to the shorter capacity of the two.
    const capacity = Math.min(terms.data.length, infos.data.length);
    index.termPages[0] = terms.data.length === capacity ? terms.data : terms.data.subarray(0, capacity);
    index.infoPages[0] = infos.data.length === capacity ? infos.data : infos.data.subarray(0, capacity);
    index.docStart = docStart;
    index.docPage = GrowableUint32.zeroed(docStart.length - 1);
    index.length = terms.length;
    return index;
  }

  get documentCount(): number {
    return this.docStart.length - 1;
  }

  /** Appends a token to the document being written (`info` in the packed layout). */
  push(term: number, info: number): void {
    const page = this.termPages.length - 1;
    let local = this.length - this.pageBase[page];
    if (local === this.termPages[page].length) local = this.newPage();
    const last = this.termPages.length - 1;
    this.setTerm(last, local, term);
    this.setInfo(last, local, info);
    this.length++;
  }

  private setTerm(page: number, local: number, term: number): void {
    let terms = this.termPages[page];
    if (terms.BYTES_PER_ELEMENT === 2 && term > 0xffff) this.termPages[page] = terms = Uint32Array.from(terms);
    terms[local] = term;
  }

  private setInfo(page: number, local: number, info: number): void {
    let infos = this.infoPages[page];
    if (infos.BYTES_PER_ELEMENT === 2) {
      const narrow = narrowInfo(info);
      if (narrow >= 0) {
        infos[local] = narrow;
        return;
      }
      // Every entry, room included (zeros read back as zeros): the page keeps its length.
      this.infoPages[page] = infos = wideInfos(infos, infos.length);
    }
    infos[local] = info;
  }

  /** Ends the document being written (its tokens are those pushed since the previous end). */
  endDocument(): void {
    this.docStart.push(this.length);
    this.docPage.push(this.termPages.length - 1);
  }

  /** The page holding document `doc`'s tokens (its entry in `termPages` and `infoPages`). */
  pageOf(doc: number): number {
    return this.docPage.data[doc];
  }

  /** Where document `doc`'s tokens begin in its page. */
  firstOf(doc: number): number {
    return this.docStart.data[doc] - this.pageBase[this.docPage.data[doc]];
  }

  /** Where document `doc`'s tokens end in its page (exclusive). */
  endOf(doc: number): number {
    return this.docStart.data[doc + 1] - this.pageBase[this.docPage.data[doc]];
  }

  /**
   * Document `doc`'s tokens, infos in the packed layout (for code off the hot paths, which read the pages
   * directly): copies for a narrow page.
   */
  tokensOf(doc: number): { terms: Uint32Array; infos: Uint32Array } {
    const page = this.pageOf(doc);
    const first = this.firstOf(doc);
    const end = this.endOf(doc);
    return { terms: Uint32Array.from(this.termPages[page].subarray(first, end)), infos: wideInfos(this.infoPages[page].subarray(first, end), end - first) };
  }

  /** Term of the token at global `position`, which must be in the document being written. */
  openTerm(position: number): number {
    const page = this.termPages.length - 1;
    return this.termPages[page][position - this.pageBase[page]];
  }

  /** Info (packed layout) of the token at global `position`, which must be in the document being written. */
  openInfo(position: number): number {
    const page = this.infoPages.length - 1;
    return infoAt(this.infoPages[page], position - this.pageBase[page]);
  }

  setOpenInfo(position: number, info: number): void {
    const page = this.infoPages.length - 1;
    this.setInfo(page, position - this.pageBase[page], info);
  }

  /**
   * The first `length` tokens' terms, page by page: the index as one flat array would hold them (snapshots).
   * Tokens written after `length` are left out, so a snapshot described earlier reads what it described.
   */
  *termPieces(length: number): Generator<Uint8Array, void, void> {
    yield* this.pieces(this.termPages, length, wideTerms);
  }

  /** The same for the infos, in the packed layout. */
  *infoPieces(length: number): Generator<Uint8Array, void, void> {
    yield* this.pieces(this.infoPages, length, wideInfos);
  }

  /** Gives back the room of the document offsets past a quarter (after a bulk load). */
  trim(): void {
    this.docStart.trim(1.25);
    this.docPage.trim(1.25);
  }

  /**
   * Snapshots store 4 bytes a token: a narrow page is widened (`wide`) into one buffer reused from page to page
   * (a piece is valid until the next is asked for, `SnapshotWriter.pieces`): a fresh one per page was 8 MB of
   * garbage per page, outside the heap, for each snapshot.
   */
  private *pieces(pages: PageArray[], length: number, wide: (page: PageArray, used: number, into: Uint32Array) => Uint32Array): Generator<Uint8Array, void, void> {
    let scratch: Uint32Array | null = null;
    for (let p = 0; p < pages.length && this.pageBase[p] < length; p++) {
      const used = Math.min(p + 1 < pages.length ? this.pageBase[p + 1] : this.length, length) - this.pageBase[p];
      if (used <= 0) continue;
      if (pages[p].BYTES_PER_ELEMENT === 2 && (scratch === null || scratch.length < used)) scratch = new Uint32Array(Math.max(used, Math.min(this.pages.max, 2 * used)));
      const words = wide(pages[p], used, scratch!);
      yield new Uint8Array(words.buffer, words.byteOffset, used * 4);
    }
  }

  /**
   * Starts a page (the last one is full) and moves the tokens of the document being written into it; returns
   * where the next token goes in it. A page at least twice that document's tokens so far: one longer than a
   * full-size page gets a page of its own.
   */
  private newPage(): number {
    const last = this.termPages.length - 1;
    const base = this.pageBase[last];
    const open = this.docStart.data[this.docStart.length - 1];
    const carried = this.length - open;
    const size = Math.max(this.pages.min, Math.min(this.pages.max, this.termPages[last].length * 2), carried * 2);
    const fromTerms = this.termPages[last];
    const fromInfos = this.infoPages[last];
    // Narrow again: the tokens carried over widen it as they are written, like any token.
    const page = open === base ? last : last + 1;
    this.termPages[page] = new Uint16Array(size);
    this.infoPages[page] = new Uint16Array(size);
    if (open !== base) this.pageBase.push(open);
    // (When the open document filled its page alone, the new page replaces it: no document lives there.)
    for (let k = 0; k < carried; k++) {
      this.setTerm(page, k, fromTerms[open - base + k]);
      this.setInfo(page, k, infoAt(fromInfos, open - base + k));
    }
    return carried;
  }
}
