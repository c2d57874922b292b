/**
 * The term dictionary: every distinct normalised word of the searchable text, with a dense term id.
 *
 * Lookups by exact term go through a `Map`. Prefix and typo enumeration go through a *sorted view* of the terms:
 * a sorted array is a flattened trie (terms sharing a prefix are contiguous), so
 * - every term starting with a prefix is one contiguous range, found by two binary searches;
 * - the typo walk goes down a trie built from that order (`TermTrie`), reusing the edit-distance rows of shared
 *   prefixes and skipping every term under a prefix that can no longer match.
 * The sorted view is rebuilt lazily after new terms arrive (one sort of the new terms plus a linear merge).
 * The trie is not: building it costs 70–105 ms at 200,000 terms, and catalogues whose searchable attributes
 * hold codes (SKUs) add new terms with every batch. Terms added since it was built get a small trie of their
 * own, and the large one is rebuilt only once they outnumber a sixteenth of it — a constant cost per term
 * added, however writes and searches interleave.
 */
import { partitionPoint } from '../structures/binary-search.ts';
import { TermTrie } from './term-trie.ts';

/** Terms added since the typo walk's trie was built that never force a rebuild (see the file comment). */
const MIN_RECENT_TERMS = 2048;

interface TrieOfTerms {
  trie: TermTrie;
  ids: Uint32Array;
  size: number;
}

export class TermDictionary {
  private readonly ids = new Map<string, number>();
  /** Term by id. */
  readonly terms: string[] = [];
  private sortedTerms: string[] = [];
  private sortedIds: Uint32Array = new Uint32Array(0);
  /** Terms added since the sorted view was built. */
  private pending: number[] = [];
  /** The typo walk's trie of the terms with ids below `size`, and its terms' ids in sorted order. */
  private trie: TrieOfTerms | null = null;
  /** The same for the terms added since (ids from `trie.size` up to its own `size`). */
  private recentTrie: TrieOfTerms | null = null;

  get size(): number {
    return this.terms.length;
  }

  idOf(term: string): number | undefined {
    return this.ids.get(term);
  }

  /** The id of `term`, adding it if new. */
  intern(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(term);
      this.ids.set(term, id);
      this.pending.push(id);
    }
    return id;
  }

  /** Term ids in sorted term order (shared; do not mutate). */
  sortedOrder(): Uint32Array {
    this.refresh();
    return this.sortedIds;
  }

  /** `[lo, hi)` in sorted order: every term that starts with `prefix`. */
  prefixRange(prefix: string): [number, number] {
    this.refresh();
    const sorted = this.sortedTerms;
    const lo = lowerBound(sorted, prefix);
    // Terms starting with the prefix are contiguous; the first one that does not is the end of the range.
    const upper = prefixUpperBound(prefix);
    return [lo, upper === null ? sorted.length : lowerBound(sorted, upper, lo)];
  }

  /** Visits every term that starts with `prefix`. */
  forEachWithPrefix(prefix: string, visit: (termId: number) => void): void {
    const [lo, hi] = this.prefixRange(prefix);
    const ids = this.sortedIds;
    for (let i = lo; i < hi; i++) visit(ids[i]);
  }

  /**
   * Visits every term within `maxDistance` edits of `word` (optimal string alignment distance: insertion,
   * deletion, substitution, and a swap of two adjacent letters each count as one typo), with its distance.
   * With `prefix`, a term matches when one of its prefixes is within the distance (as-you-type typing), and the
   * reported distance is the smallest over its prefixes.
   */
  fuzzy(word: string, maxDistance: number, prefix: boolean, visit: (termId: number, distance: number) => void): void {
    const total = this.terms.length;
    if (this.trie === null || total - this.trie.size > Math.max(MIN_RECENT_TERMS, this.trie.size >> 4)) {
      this.refresh();
      this.trie = { trie: new TermTrie(this.sortedTerms), ids: this.sortedIds, size: total };
      this.recentTrie = null;
    }
    const { trie, ids } = this.trie;
    trie.fuzzy(word, maxDistance, prefix, (sortedIndex, distance) => visit(ids[sortedIndex], distance));
    if (total === this.trie.size) return;
    if (this.recentTrie === null || this.recentTrie.size !== total) {
      const recent = Uint32Array.from({ length: total - this.trie.size }, (_, i) => this.trie!.size + i);
      recent.sort((x, y) => compareStrings(this.terms[x], this.terms[y]));
      this.recentTrie = { trie: new TermTrie(Array.from(recent, (id) => this.terms[id])), ids: recent, size: total };
    }
    const recent = this.recentTrie;
    recent.trie.fuzzy(word, maxDistance, prefix, (sortedIndex, distance) => visit(recent.ids[sortedIndex], distance));
  }

  private refresh(): void {
    if (this.pending.length === 0) return;
    const added = this.pending.map((id) => this.terms[id]).sort(compareStrings);
    const merged: string[] = new Array(this.sortedTerms.length + added.length);
    const mergedIds = new Uint32Array(merged.length);
    let a = 0;
    let b = 0;
    for (let k = 0; k < merged.length; k++) {
      const takeOld = b >= added.length || (a < this.sortedTerms.length && this.sortedTerms[a] < added[b]);
      const term = takeOld ? this.sortedTerms[a++] : added[b++];
      merged[k] = term;
      mergedIds[k] = this.ids.get(term) as number;
    }
    this.sortedTerms = merged;
    this.sortedIds = mergedIds;
    this.pending = [];
  }
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function lowerBound(sorted: string[], key: string, from = 0): number {
  return partitionPoint(from, sorted.length, (i) => sorted[i] < key);
}

/** The smallest string greater than every string starting with `prefix`, or null when there is none. */
function prefixUpperBound(prefix: string): string | null {
  let end = prefix.length;
  while (end > 0) {
    const code = prefix.charCodeAt(end - 1);
    if (code < 0xffff) return prefix.slice(0, end - 1) + String.fromCharCode(code + 1);
    end--;
  }
  return null;
}
