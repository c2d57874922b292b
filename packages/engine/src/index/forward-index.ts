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

/** Entries of the first page (a small index stays small); pages double up to the largest. */
const MIN_PAGE_ENTRIES = 1 << 10;
/** Entries of a full-size page: 4 MB per array. */
export const MAX_PAGE_ENTRIES = 1 << 20;

export class ForwardIndex {
  /** Per page, the term ids of its tokens (entries past the page's used part are room). */
  readonly termPages: Uint32Array[] = [];
  /** Per page, the packed slot/position of its tokens (same layout as `termPages`). */
  readonly infoPages: Uint32Array[] = [];
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
    this.termPages.push(new Uint32Array(pages.min));
    this.infoPages.push(new Uint32Array(pages.min));
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

  /** Appends a token to the document being written. */
  push(term: number, info: number): void {
    const page = this.termPages.length - 1;
    let local = this.length - this.pageBase[page];
    if (local === this.termPages[page].length) local = this.newPage();
    const last = this.termPages.length - 1;
    this.termPages[last][local] = term;
    this.infoPages[last][local] = info;
    this.length++;
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

  /** Document `doc`'s tokens: views of its page (for code off the hot paths, which read the pages directly). */
  tokensOf(doc: number): { terms: Uint32Array; infos: Uint32Array } {
    const page = this.pageOf(doc);
    const first = this.firstOf(doc);
    const end = this.endOf(doc);
    return { terms: this.termPages[page].subarray(first, end), infos: this.infoPages[page].subarray(first, end) };
  }

  /** Term of the token at global `position`, which must be in the document being written. */
  openTerm(position: number): number {
    const page = this.termPages.length - 1;
    return this.termPages[page][position - this.pageBase[page]];
  }

  /** Info of the token at global `position`, which must be in the document being written. */
  openInfo(position: number): number {
    const page = this.infoPages.length - 1;
    return this.infoPages[page][position - this.pageBase[page]];
  }

  setOpenInfo(position: number, info: number): void {
    const page = this.infoPages.length - 1;
    this.infoPages[page][position - this.pageBase[page]] = info;
  }

  /**
   * The first `length` tokens' terms, page by page: the index as one flat array would hold them (snapshots).
   * Tokens written after `length` are left out, so a snapshot described earlier reads what it described.
   */
  *termPieces(length: number): Generator<Uint8Array, void, void> {
    yield* this.pieces(this.termPages, length);
  }

  *infoPieces(length: number): Generator<Uint8Array, void, void> {
    yield* this.pieces(this.infoPages, length);
  }

  /** Gives back the room of the document offsets past a quarter (after a bulk load). */
  trim(): void {
    this.docStart.trim(1.25);
    this.docPage.trim(1.25);
  }

  private *pieces(pages: Uint32Array[], length: number): Generator<Uint8Array, void, void> {
    for (let p = 0; p < pages.length && this.pageBase[p] < length; p++) {
      const used = Math.min(p + 1 < pages.length ? this.pageBase[p + 1] : this.length, length) - this.pageBase[p];
      if (used > 0) yield new Uint8Array(pages[p].buffer, pages[p].byteOffset, used * 4);
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
    const terms = new Uint32Array(size);
    const infos = new Uint32Array(size);
    terms.set(this.termPages[last].subarray(open - base, this.length - base));
    infos.set(this.infoPages[last].subarray(open - base, this.length - base));
    if (open === base) {
      // The open document filled its page alone: the new page replaces it (no document lives there).
      this.termPages[last] = terms;
      this.infoPages[last] = infos;
    } else {
      this.termPages.push(terms);
      this.infoPages.push(infos);
      this.pageBase.push(open);
    }
    return carried;
  }
}
