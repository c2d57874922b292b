/**
 * The typo walk as it was before the trie (`src/index/term-trie.ts`), frozen as the baseline of
 * `bench/typo-walk.ts`: a depth-first walk over the sorted terms themselves, reusing the rows of the prefix a
 * term shares with the previous one, and finding the end of a pruned prefix's terms by a binary search of
 * strings. Not used by the engine.
 */
// Scratch rows kept between calls, as the dictionary kept them.
const rows: Int32Array[] = [];
let prefixMinRow = new Int32Array(0);

export function sortedWalkFuzzy(sorted: readonly string[], word: string, maxDistance: number, prefix: boolean, visit: (sortedIndex: number, distance: number) => void): void {
  const m = word.length;
  const ensureRows = (depth: number): void => {
    while (rows.length <= depth) rows.push(new Int32Array(m + 1));
    for (let r = 0; r <= depth; r++) if (rows[r].length < m + 1) rows[r] = new Int32Array(m + 1);
    if (prefixMinRow.length <= depth) {
      const grown = new Int32Array(Math.max(depth + 1, prefixMinRow.length * 2));
      grown.set(prefixMinRow);
      prefixMinRow = grown;
    }
  };
  ensureRows(0);
  const row0 = rows[0];
  for (let j = 0; j <= m; j++) row0[j] = j;
  prefixMinRow[0] = m;
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
      const pm = prefixMinRow[depth - 1];
      prefixMinRow[depth] = cur[m] < pm ? cur[m] : pm;
      if (rowMin > maxDistance) {
        // No extension of this prefix can come back within the distance (a swap reaches back two rows,
        // but only through a cell that is itself within one of the row above): skip all terms sharing it.
        // As-you-type, a shorter prefix may already have matched: then the whole subtree matches with it.
        pruned = depth;
        if (prefix && prefixMinRow[depth] <= maxDistance) subtreeDistance = prefixMinRow[depth];
        break;
      }
    }
    previous = term;
    if (pruned >= 0) {
      validDepth = pruned - 1;
      const stem = term.slice(0, pruned);
      const next = prefixUpperBound(stem);
      const end = next === null ? sorted.length : lowerBound(sorted, next, i + 1);
      if (subtreeDistance >= 0) for (let k = i; k < end; k++) visit(k, subtreeDistance);
      i = end;
      continue;
    }
    validDepth = term.length;
    const distance = prefix ? prefixMinRow[term.length] : rows[term.length][m];
    if (distance <= maxDistance) visit(i, distance);
    i++;
  }
}

function lowerBound(sorted: readonly string[], key: string, from = 0): number {
  let lo = from;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

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
