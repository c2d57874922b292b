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
import { Bitset, isSparse, nextSetWord } from '../structures/bitset.ts';
import { queryBitsets } from '../structures/bitset-pool.ts';
import type { RankRule } from './rule.ts';
import { kthSmallest } from '../structures/kth-smallest.ts';
import { ScratchStack } from '../structures/scratch-stack.ts';

/** Buckets up to this size are ordered with per-document keys. */
const SMALL = 1024;
/** Documents tested before a floor-first placement, to tell whether documents at the floor are rare. */
const SAMPLE = 64;

export function toIdArray(set: Bitset, count: number): Uint32Array {
  const out = new Uint32Array(count);
  let n = 0;
  const words = set.words;
  const end = words.length;
  const sparse = isSparse(count, end);
  for (let i = sparse ? nextSetWord(words, 0, end) : 0; i < end && n < count; i = sparse ? nextSetWord(words, i + 1, end) : i + 1) {
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

/**
 * Admits only some documents to the output: the documents at a criterion's floor, while the criteria after it
 * order the bucket (see `placeFloorFirst`). Each test costs a forward-index read, so tests are budgeted: once
 * the budget is spent the gate closes, every placement under it stops, and the caller starts over without it.
 */
interface Gate {
  admits(doc: number): boolean;
  closed: boolean;
  /** How many documents are expected to be tested to admit `need` (by the share admitted so far). */
  expectedTests(need: number): number;
}

/** How many documents a walk should expect to visit to place `need`: more behind a gate that admits few. */
function wantedFrom(need: number, gate: Gate | undefined): number {
  return gate === undefined ? need : gate.expectedTests(need);
}

function placeSet(set: Bitset, count: number, rules: RankRule[], r: number, need: number, out: number[], gate?: Gate): void {
  if (count === 0 || need <= 0 || gate?.closed) return;
  if (r === rules.length) {
    const target = out.length + need;
    set.forEach((doc) => {
      if (gate === undefined || gate.admits(doc)) out.push(doc);
      return out.length < target && !gate?.closed;
    });
    return;
  }
  if (count <= SMALL) {
    placeArray(toIdArray(set, count), rules, r, need, out, false, gate);
    return;
  }
  const rule = rules[r];
  if (rule.split) {
    for (const part of rule.split(set, count, gate === undefined ? need : undefined)) {
      if (part.count === 0) continue;
      const before = out.length;
      if (part.inOrder && part.ids !== undefined && gate === undefined) placeInOrder(part.ids(), need, out);
      else if (part.resolved && part.ids !== undefined && part.count <= SMALL) placeArray(part.ids(), rules, r + 1, need, out, false, gate);
      else if (part.resolved) placeSet(part.set(), part.count, rules, r + 1, need, out, gate);
      else placeArray(toIdArray(part.set(), part.count), rules, r, need, out, true, gate);
      need -= out.length - before;
      if (need <= 0 || gate?.closed) return;
    }
    return;
  }
  if (rule.walk && rule.walkPays!(count, set.capacity, wantedFrom(need, gate))) {
    walkGroups(set, rule, rules, r, need, out, gate);
    return;
  }
  if (gate === undefined && rule.floor !== undefined && rules[r + 1]?.walk !== undefined) {
    placeFloorFirst(set, count, rules, r, need, out);
    return;
  }
  placeArray(toIdArray(set, count), rules, r, need, out, true, gate);
}

/** The first `need` of documents already in their final order (`BucketPart.inOrder`). */
function placeInOrder(ids: Uint32Array, need: number, out: number[]): void {
  const n = Math.min(need, ids.length);
  for (let i = 0; i < n; i++) out.push(ids[i]);
}

/**
 * A criterion with a floor (a key no document can beat) followed by a walkable criterion: order the bucket by
 * the criteria after this one, admitting only the documents at the floor, and stop at the first `need` of
 * them. They are exactly the first `need` by all criteria, since no document beats the floor. The later
 * criteria's shortcuts (the attribute walk, the exact split, the customRanking walk) decide which documents get
 * tested, so when the floor is common a handful are, even inside a large group of one attribute key. This is
 * what makes a two-word query over tens of thousands of matches cheap when many of them hold the words side by
 * side. When floor documents turn out rare (too few in a first sample, or fewer than the walks need by the time
 * a quarter of the bucket is tested), the whole bucket is keyed in id order instead (keys are memoised: nothing
 * is computed twice).
 */
function placeFloorFirst(set: Bitset, count: number, rules: RankRule[], r: number, need: number, out: number[]): void {
  const rule = rules[r];
  const floor = rule.floor!;
  const start = out.length;
  const budget = Math.max(need * 8, count >>> 2);
  let tested = 0;
  let admittedCount = 0;
  const gate: Gate = {
    closed: false,
    admits(doc) {
      if (++tested > budget) {
        this.closed = true;
        return false;
      }
      if (rule.key(doc) > floor) return false;
      admittedCount++;
      return true;
    },
    expectedTests: (wanted) => Math.min(count, (wanted * (tested + 1)) / (admittedCount + 1)),
  };
  // A sample first (its keys are memoised, so it is never wasted): when few documents of it sit at the floor,
  // the gated walks would visit much of the bucket for nothing, and keys in id order are cheaper.
  set.forEach((doc) => {
    gate.admits(doc);
    return tested < SAMPLE;
  });
  // Gate only when the sample says `need` admissions are likely well within the budget.
  const promising = admittedCount > 0 && 2 * gate.expectedTests(need) <= budget;
  if (promising) placeSet(set, count, rules, r + 1, need, out, gate);
  if (gate.closed || !promising) {
    out.length = start;
    placeArray(toIdArray(set, count), rules, r, need, out, true);
    return;
  }
  const found = out.length - start;
  if (found >= need || found === count) return;
  // Fewer than `need` at the floor, so every document was tested: the others follow, ordered by their keys.
  const rest = queryBitsets.copy(set);
  for (let i = start; i < out.length; i++) rest.delete(out[i]);
  placeArray(toIdArray(rest, count - found), rules, r, need - found, out, true);
}

/**
 * The documents of the group a walk is collecting, shared by every walk: a group is consumed (copied, or
 * added to a bitset) before it is ordered, so a walk nested in that ordering may reuse the buffer.
 */
let groupDocs = new Uint32Array(1024);

/** Consumes a criterion's walk group by group (a group: one key), ordering each group by the next criteria. */
function walkGroups(set: Bitset, rule: RankRule, rules: RankRule[], r: number, need: number, out: number[], gate?: Gate): void {
  const target = out.length + need;
  let groupLength = 0;
  let groupKey = NaN;
  const flush = (): void => {
    const remaining = target - out.length;
    if (groupLength === 0 || remaining <= 0) return;
    const group = groupDocs.subarray(0, groupLength);
    const mark = uintScratch.mark();
    try {
      if (groupLength <= SMALL) {
        const docs = uintScratch.take(groupLength);
        docs.set(group);
        docs.sort();
        placeArray(docs, rules, r + 1, remaining, out, false, gate);
      } else {
        const bucket = queryBitsets.acquire(set.capacity);
        for (let i = 0; i < groupLength; i++) bucket.add(group[i]);
        placeSet(bucket, groupLength, rules, r + 1, remaining, out, gate);
      }
    } finally {
      uintScratch.release(mark);
    }
  };
  rule.walk!(set, (doc, key) => {
    if (key !== groupKey) {
      flush();
      if (out.length >= target || gate?.closed) return false;
      groupLength = 0;
      groupKey = key;
    }
    if (groupLength === groupDocs.length) {
      const grown = new Uint32Array(groupLength * 2);
      grown.set(groupDocs);
      groupDocs = grown;
    }
    groupDocs[groupLength++] = doc;
    return true;
  });
  flush();
}

/**
 * Keys and groups of the buckets being ordered: taken in `placeArray` (and the walks' groups), given back when it
 * returns, so that steady-state ordering allocates views, not arrays.
 */
const keyScratch = new ScratchStack((length) => new Float64Array(length));
const uintScratch = new ScratchStack((length) => new Uint32Array(length));
/** `kthSmallest`'s heap: done with before anything else is ordered, so one buffer serves every bucket. */
let kthHeap = new Float64Array(64);

/** `keyed`: this criterion must use per-document keys (its shortcuts were already considered for this bucket). */
function placeArray(docs: Uint32Array, rules: RankRule[], r: number, need: number, out: number[], keyed = false, gate?: Gate): void {
  if (docs.length === 0 || need <= 0 || gate?.closed) return;
  const keyMark = keyScratch.mark();
  const uintMark = uintScratch.mark();
  try {
    placeArrayWithin(docs, rules, r, need, out, keyed, gate);
  } finally {
    keyScratch.release(keyMark);
    uintScratch.release(uintMark);
  }
}

/** `placeArray`, its temporaries taken from the scratch stacks. */
function placeArrayWithin(docs: Uint32Array, rules: RankRule[], r: number, need: number, out: number[], keyed: boolean, gate: Gate | undefined): void {
  if (gate !== undefined && (docs.length <= SMALL || r === rules.length)) {
    // Few documents, or no criterion left to order them: test them now, then place the admitted ones as usual.
    docs = admitted(docs, gate, r === rules.length ? need : docs.length);
    if (gate.closed || docs.length === 0) return;
    gate = undefined;
  }
  if (r === rules.length || docs.length === 1) {
    // Documents arrive in ascending id order: the final tie-break is insertion order.
    const n = Math.min(need, docs.length);
    for (let i = 0; i < n; i++) out.push(docs[i]);
    return;
  }
  const rule = rules[r];
  const n = docs.length;
  const floorWalk = gate === undefined && rule.floor !== undefined && rules[r + 1]?.walk !== undefined;
  if (!keyed && n > SMALL && (rule.split || floorWalk || (rule.walk && rule.walkPays!(n, docs[n - 1] + 1, wantedFrom(need, gate))))) {
    // A large group reaching a criterion with a bitset shortcut: back to bucket mode.
    const set = new Bitset(docs[n - 1] + 1);
    for (let i = 0; i < n; i++) set.add(docs[i]);
    placeSet(set, n, rules, r, need, out, gate);
    return;
  }
  const keys = keyScratch.take(n);
  if (rule.keys !== undefined) rule.keys(docs, keys);
  else for (let i = 0; i < n; i++) keys[i] = rule.key(docs[i]);
  if (gate !== undefined) {
    placeGroupsInKeyOrder(docs, keys, rules, r, need, out, gate);
    return;
  }
  const k = Math.min(need, n);
  if (kthHeap.length < k) kthHeap = new Float64Array(Math.max(k, 2 * kthHeap.length));
  const threshold = kthSmallest(keys, k, kthHeap);
  // Documents strictly below the threshold: fewer than `need`, sorted by (key, id).
  const below = uintScratch.take(k);
  let belowCount = 0;
  let tied = 0;
  for (let i = 0; i < n; i++) {
    if (keys[i] < threshold) below[belowCount++] = i;
    else if (keys[i] === threshold) tied++;
  }
  sortByKey(below, belowCount, keys);
  let start = 0;
  while (start < belowCount) {
    let end = start + 1;
    while (end < belowCount && keys[below[end]] === keys[below[start]]) end++;
    const group = uintScratch.take(end - start);
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
    group = uintScratch.take(tied);
    let g = 0;
    for (let i = 0; i < n; i++) if (keys[i] === threshold) group[g++] = docs[i];
  }
  placeArray(group, rules, r + 1, need, out);
}

/**
 * Sorts `indexes[0..count)` (ascending on entry) by their keys, ties in index order. A page's worth of
 * documents is sorted in place by insertion (no comparator closure, no copy); more go through `Array.sort`.
 */
function sortByKey(indexes: Uint32Array, count: number, keys: Float64Array): void {
  if (count > 64) {
    const sorted = Array.from(indexes.subarray(0, count)).sort((a, b) => keys[a] - keys[b] || a - b);
    indexes.set(sorted);
    return;
  }
  for (let i = 1; i < count; i++) {
    const index = indexes[i];
    const key = keys[index];
    let j = i - 1;
    // Entries arrive in ascending index order, so an equal key never moves past an earlier index.
    while (j >= 0 && keys[indexes[j]] > key) {
      indexes[j + 1] = indexes[j];
      j--;
    }
    indexes[j + 1] = index;
  }
}

/** The documents the gate admits, in their order, at most `limit` of them. */
function admitted(docs: Uint32Array, gate: Gate, limit: number): Uint32Array {
  const kept = new Uint32Array(Math.min(docs.length, limit));
  let n = 0;
  for (let i = 0; i < docs.length && n < limit; i++) if (gate.admits(docs[i])) kept[n++] = docs[i];
  return kept.subarray(0, n);
}

/**
 * Behind a gate, the `need`-th smallest key says nothing (documents below it may not be admitted): groups of
 * equal keys are placed best first until enough are admitted. They are selected in rounds, each taking the
 * next smallest keys, four times as many as the round before, so that a large bucket is sorted only as far as
 * the gate needs.
 */
function placeGroupsInKeyOrder(docs: Uint32Array, keys: Float64Array, rules: RankRule[], r: number, need: number, out: number[], gate: Gate): void {
  const n = docs.length;
  const candidateKeys = keyScratch.take(n);
  const chosen = uintScratch.take(n);
  let above = -Infinity;
  let take = 2 * need;
  /** Places the documents at `chosen[from..to)`; false once enough are admitted (or the gate closed). */
  const placeGroup = (from: number, to: number): boolean => {
    if (to - from === 1) {
      // A key of its own (customRanking): nothing left to order it by.
      const doc = docs[chosen[from]];
      if (gate.admits(doc)) {
        out.push(doc);
        need--;
      }
    } else {
      const mark = uintScratch.mark();
      const group = uintScratch.take(to - from);
      for (let g = from; g < to; g++) group[g - from] = docs[chosen[g]];
      const before = out.length;
      placeArray(group, rules, r + 1, need, out, false, gate);
      uintScratch.release(mark);
      need -= out.length - before;
    }
    return need > 0 && !gate.closed;
  };
  for (;;) {
    let m = 0;
    for (let i = 0; i < n; i++) if (keys[i] > above) candidateKeys[m++] = keys[i];
    if (m === 0) return;
    const threshold = take < m ? kthSmallest(candidateKeys.subarray(0, m), take) : Infinity;
    let c = 0;
    for (let i = 0; i < n; i++) if (keys[i] > above && keys[i] <= threshold) chosen[c++] = i;
    const distinct = keyScratch.take(c);
    for (let d = 0; d < c; d++) distinct[d] = keys[chosen[d]];
    distinct.sort();
    let distinctCount = 0;
    for (let d = 0; d < c; d++) if (d === 0 || distinct[d] !== distinct[d - 1]) distinct[distinctCount++] = distinct[d];
    if (distinctCount <= 8) {
      // Typo, words, exact: few keys, many documents each. One pass per key, ids kept ascending.
      for (let d = 0; d < distinctCount; d++) {
        let g = 0;
        const key = distinct[d];
        for (let i = 0; i < n; i++) if (keys[i] === key) chosen[g++] = i;
        if (!placeGroup(0, g)) return;
      }
    } else {
      const order = Array.from(chosen.subarray(0, c)).sort((a, b) => keys[a] - keys[b] || a - b);
      chosen.set(order);
      let start = 0;
      while (start < c) {
        let end = start + 1;
        while (end < c && keys[chosen[end]] === keys[chosen[start]]) end++;
        if (!placeGroup(start, end)) return;
        start = end;
      }
    }
    above = threshold;
    take *= 4;
  }
}
