/**
 * Top-k ordering under lexicographic tie-breaking criteria, touching as few documents as possible.
 *
 * Buckets of documents are refined criterion by criterion, and only the buckets that can still reach the
 * first `need` positions are looked at:
 * - a large bucket (a bitset) is split with bitset operations when the criterion can (`split`), or walked in
 *   the criterion's order (`walk`: customRanking order, postings grouped by attribute), group by group, until
 *   enough documents are placed;
 * - a small bucket (an array) gets a key per document: a bounded heap finds the `need`-th smallest key T,
 *   documents above T are dropped, those below are sorted and grouped, and those tied at T form the last group.
 * The last resort is the internal id (insertion order).
 */
import { Bitset } from '../structures/bitset.ts';
import { queryBitsets } from '../structures/bitset-pool.ts';
import type { RankRule } from './rule.ts';

/** Buckets up to this size are ordered with per-document keys. */
const SMALL = 1024;

export function toIdArray(set: Bitset, count: number): Uint32Array {
  const out = new Uint32Array(count);
  let n = 0;
  const words = set.words;
  for (let i = 0; i < words.length && n < count; i++) {
    let w = words[i] | 0;
    while (w !== 0) {
      const low = w & -w;
      out[n++] = (i << 5) + (31 - Math.clz32(low));
      w ^= low;
    }
  }
  return n === count ? out : out.subarray(0, n);
}

/** The first `need` documents of `set` (holding `count` documents) in ranking order. */
export function orderSet(set: Bitset, count: number, rules: RankRule[], need: number): number[] {
  const out: number[] = [];
  if (need > 0 && count > 0) placeSet(set, count, rules, 0, need, out);
  return out;
}

/** The first `need` of `candidates` (ascending ids) in ranking order. */
export function orderTop(candidates: Uint32Array, rules: RankRule[], need: number): number[] {
  const out: number[] = [];
  if (need > 0) placeArray(candidates, rules, 0, need, out);
  return out;
}

function placeSet(set: Bitset, count: number, rules: RankRule[], r: number, need: number, out: number[]): void {
  if (count === 0 || need <= 0) return;
  if (r === rules.length) {
    const target = out.length + need;
    set.forEach((doc) => {
      out.push(doc);
      return out.length < target;
    });
    return;
  }
  if (count <= SMALL) {
    placeArray(toIdArray(set, count), rules, r, need, out);
    return;
  }
  const rule = rules[r];
  if (rule.split) {
    for (const part of rule.split(set, count)) {
      if (part.count === 0) continue;
      const before = out.length;
      if (part.resolved) placeSet(part.set(), part.count, rules, r + 1, need, out);
      else placeArray(toIdArray(part.set(), part.count), rules, r, need, out, true);
      need -= out.length - before;
      if (need <= 0) return;
    }
    return;
  }
  if (rule.walk && rule.walkPays!(count, set.capacity, need)) {
    walkGroups(set, rule, rules, r, need, out);
    return;
  }
  if (rule.floor !== undefined && rules[r + 1]?.walk !== undefined) {
    placeFloorFirst(set, count, rules, r, need, out);
    return;
  }
  placeArray(toIdArray(set, count), rules, r, need, out, true);
}

/**
 * A criterion with a floor (a key no document can beat) followed by a walkable criterion: walk the bucket in
 * the next criterion's order and collect the documents at the floor, grouped by the next criterion's key. Once
 * `need` of them are collected when a group ends, no document not yet walked can rank among the first `need`
 * (it is either above the floor, or at the floor with a worse next key), so most of the bucket is never keyed.
 * This is what makes a two-word query over tens of thousands of matches cheap when many of them hold the words
 * side by side. The walk visits documents out of id order (slower per document than keying them in order), so
 * when floor documents turn out rare it is abandoned after a quarter of the bucket, and the whole bucket is
 * keyed in id order instead (keys are memoised: nothing is computed twice).
 */
function placeFloorFirst(set: Bitset, count: number, rules: RankRule[], r: number, need: number, out: number[]): void {
  const rule = rules[r];
  const floor = rule.floor!;
  const budget = Math.max(need * 8, count >>> 2);
  const groups: number[][] = [];
  let group: number[] | null = null;
  let groupKey = NaN;
  let found = 0;
  let visited = 0;
  // Set inside the walk's callback (a plain annotation would let TypeScript narrow it to 'walked' here).
  let outcome = 'walked' as 'enough' | 'abandoned' | 'walked';
  rules[r + 1].walk!(set, (doc, key) => {
    if (key !== groupKey) {
      if (found >= need) {
        outcome = 'enough';
        return false;
      }
      groupKey = key;
      group = null;
    }
    if (++visited > budget && found < need) {
      outcome = 'abandoned';
      return false;
    }
    if (rule.key(doc) === floor) {
      if (group === null) groups.push((group = []));
      group.push(doc);
      found++;
    }
    return true;
  });
  if (outcome === 'abandoned') {
    placeArray(toIdArray(set, count), rules, r, need, out, true);
    return;
  }
  const target = out.length + need;
  for (const docs of groups) {
    if (out.length >= target) return;
    placeArray(Uint32Array.from(docs).sort(), rules, r + 2, target - out.length, out);
  }
  if (outcome === 'enough' || out.length >= target || found === count) return;
  // Fewer than `need` at the floor: the others follow, ordered by this criterion's keys.
  const rest = queryBitsets.copy(set);
  for (const docs of groups) for (const doc of docs) rest.delete(doc);
  placeArray(toIdArray(rest, count - found), rules, r, target - out.length, out, true);
}

/** Consumes a criterion's walk group by group (a group: one key), ordering each group by the next criteria. */
function walkGroups(set: Bitset, rule: RankRule, rules: RankRule[], r: number, need: number, out: number[]): void {
  const target = out.length + need;
  let group: number[] = [];
  let groupKey = NaN;
  const flush = (): void => {
    const remaining = target - out.length;
    if (group.length === 0 || remaining <= 0) return;
    if (group.length <= SMALL) {
      const docs = Uint32Array.from(group).sort();
      placeArray(docs, rules, r + 1, remaining, out);
    } else {
      const bucket = queryBitsets.acquire(set.capacity);
      for (const doc of group) bucket.add(doc);
      placeSet(bucket, group.length, rules, r + 1, remaining, out);
    }
  };
  rule.walk!(set, (doc, key) => {
    if (key !== groupKey) {
      flush();
      if (out.length >= target) return false;
      group = [];
      groupKey = key;
    }
    group.push(doc);
    return true;
  });
  flush();
}

/** `keyed`: this criterion must use per-document keys (its shortcuts were already considered for this bucket). */
function placeArray(docs: Uint32Array, rules: RankRule[], r: number, need: number, out: number[], keyed = false): void {
  if (docs.length === 0 || need <= 0) return;
  if (r === rules.length || docs.length === 1) {
    // Documents arrive in ascending id order: the final tie-break is insertion order.
    const n = Math.min(need, docs.length);
    for (let i = 0; i < n; i++) out.push(docs[i]);
    return;
  }
  const rule = rules[r];
  const n = docs.length;
  const floorWalk = rule.floor !== undefined && rules[r + 1]?.walk !== undefined;
  if (!keyed && n > SMALL && (rule.split || floorWalk || (rule.walk && rule.walkPays!(n, docs[n - 1] + 1, need)))) {
    // A large group reaching a criterion with a bitset shortcut: back to bucket mode.
    const set = new Bitset(docs[n - 1] + 1);
    for (let i = 0; i < n; i++) set.add(docs[i]);
    placeSet(set, n, rules, r, need, out);
    return;
  }
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = rule.key(docs[i]);
  const threshold = kthSmallest(keys, Math.min(need, n));
  // Documents strictly below the threshold: fewer than `need`, sorted by (key, id).
  const below: number[] = [];
  let tied = 0;
  for (let i = 0; i < n; i++) {
    if (keys[i] < threshold) below.push(i);
    else if (keys[i] === threshold) tied++;
  }
  below.sort((a, b) => keys[a] - keys[b] || a - b);
  let start = 0;
  while (start < below.length) {
    let end = start + 1;
    while (end < below.length && keys[below[end]] === keys[below[start]]) end++;
    const group = new Uint32Array(end - start);
    for (let g = 0; g < group.length; g++) group[g] = docs[below[start + g]];
    const before = out.length;
    placeArray(group, rules, r + 1, need, out);
    need -= out.length - before;
    if (need <= 0) return;
    start = end;
  }
  if (tied === 0) return;
  let group = docs;
  if (tied !== n) {
    group = new Uint32Array(tied);
    let g = 0;
    for (let i = 0; i < n; i++) if (keys[i] === threshold) group[g++] = docs[i];
  }
  placeArray(group, rules, r + 1, need, out);
}

/** The k-th smallest value (1-based k ≤ length), with a bounded max-heap: O(n log k). */
export function kthSmallest(values: Float64Array, k: number): number {
  const heap = new Float64Array(k);
  let size = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (size < k) {
      let c = size++;
      heap[c] = v;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (heap[p] >= heap[c]) break;
        const t = heap[p];
        heap[p] = heap[c];
        heap[c] = t;
        c = p;
      }
    } else if (v < heap[0]) {
      heap[0] = v;
      let p = 0;
      for (;;) {
        const l = 2 * p + 1;
        if (l >= k) break;
        const m = l + 1 < k && heap[l + 1] > heap[l] ? l + 1 : l;
        if (heap[m] <= heap[p]) break;
        const t = heap[p];
        heap[p] = heap[m];
        heap[m] = t;
        p = m;
      }
    }
  }
  return heap[0];
}
