/**
 * The term dictionary: every distinct normalised word of the searchable text, with a dense term id.
 *
 * Lookups by exact term go through a `Map`. Prefix and typo enumeration go through a *sorted view* of the terms:
 * a sorted array is a flattened trie (terms sharing a prefix are contiguous), so
 * - every term starting with a prefix is one contiguous range, found by two binary searches;
 * - a depth-first fuzzy walk can reuse the edit-distance rows of the prefix a term shares with the previous one,
 *   and skip a whole range of terms as soon as a prefix can no longer match (see `fuzzy`).
 * The sorted view is rebuilt lazily after new terms arrive (one sort of the new terms plus a linear merge).
 */
import { partitionPoint } from '../structures/binary-search.ts';

export class TermDictionary {
  private readonly ids = new Map<string, number>();
  /** Term by id. */
  readonly terms: string[] = [];
  private sortedTerms: string[] = [];
  private sortedIds: Uint32Array = new Uint32Array(0);
  /** Terms added since the sorted view was built. */
  private pending: number[] = [];
  // Scratch rows of the fuzzy walk, kept between calls to avoid reallocating per query.
  private rows: Int32Array[] = [];
  private prefixMin: Int32Array = new Int32Array(0);

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
    this.refresh();
    const sorted = this.sortedTerms;
    const ids = this.sortedIds;
    const m = word.length;
    const rows = this.rows;
    const ensureRows = (depth: number): void => {
      while (rows.length <= depth) rows.push(new Int32Array(m + 1));
      for (let r = 0; r <= depth; r++) if (rows[r].length < m + 1) rows[r] = new Int32Array(m + 1);
      if (this.prefixMin.length <= depth) {
        const grown = new Int32Array(Math.max(depth + 1, this.prefixMin.length * 2));
        grown.set(this.prefixMin);
        this.prefixMin = grown;
      }
    };
    ensureRows(0);
    const row0 = rows[0];
    for (let j = 0; j <= m; j++) row0[j] = j;
    this.prefixMin[0] = m;
    let previous = '';
    // Rows 1..validDepth hold the distances of previous.slice(0, depth).
    let validDepth = 0;
    let i = 0;
    while (i < sorted.length) {
      const term = sorted[i];
      let depth = Math.min(validDepth, commonPrefixLength(previous, term));
      let pruned = -1;
      let subtreeDistance = -1;
      for (; depth < term.length; ) {
        depth++;
        ensureRows(depth);
        const prev = rows[depth - 1];
        const cur = rows[depth];
        const ch = term.charCodeAt(depth - 1);
        cur[0] = depth;
        let rowMin = depth;
        for (let j = 1; j <= m; j++) {
          const cost = word.charCodeAt(j - 1) === ch ? 0 : 1;
          let best = prev[j - 1] + cost;
          const del = prev[j] + 1;
          if (del < best) best = del;
          const ins = cur[j - 1] + 1;
          if (ins < best) best = ins;
          if (depth > 1 && j > 1 && ch === word.charCodeAt(j - 2) && term.charCodeAt(depth - 2) === word.charCodeAt(j - 1)) {
            const swap = rows[depth - 2][j - 2] + 1;
            if (swap < best) best = swap;
          }
          cur[j] = best;
          if (best < rowMin) rowMin = best;
        }
        const pm = this.prefixMin[depth - 1];
        this.prefixMin[depth] = cur[m] < pm ? cur[m] : pm;
        if (rowMin > maxDistance) {
          // No extension of this prefix can come back within the distance (a swap reaches back two rows,
          // but only through a cell that is itself within one of the row above): skip all terms sharing it.
          // As-you-type, a shorter prefix may already have matched: then the whole subtree matches with it.
          pruned = depth;
          if (prefix && this.prefixMin[depth] <= maxDistance) subtreeDistance = this.prefixMin[depth];
          break;
        }
      }
      previous = term;
      if (pruned >= 0) {
        validDepth = pruned - 1;
        const stem = term.slice(0, pruned);
        const next = prefixUpperBound(stem);
        const end = next === null ? sorted.length : lowerBound(sorted, next, i + 1);
        if (subtreeDistance >= 0) for (let k = i; k < end; k++) visit(ids[k], subtreeDistance);
        i = end;
        continue;
      }
      validDepth = term.length;
      const distance = prefix ? this.prefixMin[term.length] : rows[term.length][m];
      if (distance <= maxDistance) visit(ids[i], distance);
      i++;
    }
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

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
