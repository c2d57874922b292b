/**
 * A read-only trie of the dictionary's sorted terms, in typed arrays, for the typo walk.
 *
 * Nodes are numbered in depth-first order, which is the sorted order of the terms: a node's children follow it,
 * and `end[n]` is the first node after its subtree. So the walk descends with `n + 1` and skips a subtree with
 * `n = end[n]` — no string is compared, sliced or searched. Its predecessor walked the sorted array itself and
 * paid, at every pruned prefix, a string slice and a binary search with string comparisons to find where the
 * prefix's terms end; `bench/typo-walk.ts` measures both (about 5x faster on the demo's thousand terms, 10x on
 * 200,000).
 *
 * A trie is immutable: the dictionary builds one over its terms and a small one over the terms added since,
 * and rebuilds the large one only when those grow past a share of it (see `dictionary.ts`).
 */
export class TermTrie {
  /** Per node: its letter (UTF-16 code unit). */
  private readonly letter: Uint16Array;
  /** Per node: its depth (1 for the first letter). */
  private readonly depth: Uint32Array;
  /** Per node: the first node after its subtree. */
  private readonly end: Uint32Array;
  /** Per node: the sorted index of the first term in its subtree (the term ending at the node, if any). */
  private readonly first: Uint32Array;
  /** Per node: 1 when a term ends at it. */
  private readonly terminal: Uint8Array;
  private readonly termCount: number;
  private readonly maxDepth: number;
  // Scratch of the walk, kept between calls: (maxDepth + 1) rows of (word length + 2) distances.
  private rows = new Int32Array(0);
  private codes = new Int32Array(0);
  private readonly prefixMin: Int32Array;
  private readonly pathLetter: Uint16Array;

  /** `sorted` must be sorted and hold distinct terms. */
  constructor(sorted: readonly string[]) {
    let nodes = 0;
    let maxDepth = 0;
    for (let i = 0; i < sorted.length; i++) {
      nodes += sorted[i].length - (i === 0 ? 0 : commonPrefixLength(sorted[i - 1], sorted[i]));
      if (sorted[i].length > maxDepth) maxDepth = sorted[i].length;
    }
    this.letter = new Uint16Array(nodes);
    this.depth = new Uint32Array(nodes);
    this.end = new Uint32Array(nodes);
    this.first = new Uint32Array(nodes);
    this.terminal = new Uint8Array(nodes);
    this.termCount = sorted.length;
    this.maxDepth = maxDepth;
    this.prefixMin = new Int32Array(maxDepth + 1);
    this.pathLetter = new Uint16Array(maxDepth + 1);
    // path[d]: the open node at depth d on the way to the previous term.
    const path = new Uint32Array(maxDepth + 1);
    let open = 0;
    let next = 0;
    for (let i = 0; i < sorted.length; i++) {
      const term = sorted[i];
      const shared = i === 0 ? 0 : commonPrefixLength(sorted[i - 1], term);
      // Subtrees deeper than the shared prefix are complete: they end where this term's first new node starts.
      for (let d = open; d > shared; d--) this.end[path[d]] = next;
      for (let d = shared + 1; d <= term.length; d++) {
        this.letter[next] = term.charCodeAt(d - 1);
        this.depth[next] = d;
        this.first[next] = i;
        path[d] = next++;
      }
      if (term.length > 0) this.terminal[path[term.length]] = 1;
      open = term.length;
    }
    for (let d = open; d > 0; d--) this.end[path[d]] = next;
  }

  /**
   * Visits, by sorted index, every term within `maxDistance` edits of `word` (optimal string alignment: an
   * insertion, deletion, substitution or swap of two adjacent letters is one typo), with its distance. With
   * `prefix`, a term matches when one of its prefixes is within the distance, and the distance reported is the
   * smallest over its prefixes.
   */
  fuzzy(word: string, maxDistance: number, prefix: boolean, visit: (sortedIndex: number, distance: number) => void): void {
    const m = word.length;
    const width = m + 2;
    if (this.rows.length < (this.maxDepth + 1) * width) this.rows = new Int32Array((this.maxDepth + 1) * width);
    if (this.codes.length < m + 1) this.codes = new Int32Array(m + 1);
    const { rows, codes, letter, depth, end, first, terminal, prefixMin, pathLetter } = this;
    for (let j = 0; j < m; j++) codes[j + 1] = word.charCodeAt(j);
    // Only cells within `maxDistance` of the diagonal can hold a distance within it: each row computes that
    // band and stores `beyond` on both sides of it, which the next row reads. Capping distances past the limit
    // at `beyond` leaves every distance within the limit exact.
    const beyond = maxDistance + 1;
    for (let j = 0; j <= m; j++) rows[j] = j <= maxDistance ? j : beyond;
    rows[m + 1] = beyond;
    prefixMin[0] = m;
    const nodes = letter.length;
    let n = 0;
    while (n < nodes) {
      const d = depth[n];
      const ch = letter[n];
      pathLetter[d] = ch;
      const previousLetter = d > 1 ? pathLetter[d - 1] : -1;
      const prev = (d - 1) * width;
      const cur = d * width;
      const twoUp = (d - 2) * width;
      const lo = d > maxDistance ? d - maxDistance : 1;
      const hi = d + maxDistance < m ? d + maxDistance : m;
      let rowMin = beyond;
      let full = beyond;
      // Rows deeper than the word by more than the distance have no cell within it.
      if (lo <= hi) {
        rows[cur + lo - 1] = lo === 1 ? (d <= maxDistance ? d : beyond) : beyond;
        if (lo === 1) rowMin = d;
        for (let j = lo; j <= hi; j++) {
          const wordLetter = codes[j];
          let best = rows[prev + j - 1] + (wordLetter === ch ? 0 : 1);
          const deletion = rows[prev + j] + 1;
          if (deletion < best) best = deletion;
          const insertion = rows[cur + j - 1] + 1;
          if (insertion < best) best = insertion;
          if (j > 1 && previousLetter === wordLetter && ch === codes[j - 1]) {
            const swap = rows[twoUp + j - 2] + 1;
            if (swap < best) best = swap;
          }
          if (best > beyond) best = beyond;
          rows[cur + j] = best;
          if (best < rowMin) rowMin = best;
        }
        if (hi < m) rows[cur + hi + 1] = beyond;
        else full = rows[cur + m];
      }
      const bestPrefix = full < prefixMin[d - 1] ? full : prefixMin[d - 1];
      prefixMin[d] = bestPrefix;
      if (rowMin > maxDistance) {
        // No extension of this prefix comes back within the distance (a swap reaches back two rows, but only
        // through a cell within one of the row above). As-you-type, a shorter prefix may already have matched:
        // then every term below matches with it.
        const after = end[n];
        if (prefix && bestPrefix <= maxDistance) {
          const stop = after < nodes ? first[after] : this.termCount;
          for (let k = first[n]; k < stop; k++) visit(k, bestPrefix);
        }
        n = after;
        continue;
      }
      if (terminal[n] === 1) {
        const distance = prefix ? bestPrefix : full;
        if (distance <= maxDistance) visit(first[n], distance);
      }
      n++;
    }
  }
}

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
