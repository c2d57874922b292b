import { Bitset, popcount, unionInto } from '../structures/bitset.ts';
import type { FilterNode, FilterSource } from './types.ts';

/**
 * Evaluates a filter tree to the set of matching documents.
 *
 * Works on whole bitsets (a few microseconds per operation at a million documents) and never expands the tree
 * to a normal form. The walk keeps its own stack, so no tree shape can overflow the call stack.
 *
 * - AND evaluates its leaf operands first and intersects them from the smallest up (sizes estimated from a
 *   sample of words: an exact count would cost as much as the intersection itself); its group operands are
 *   only evaluated when the leaves left something. `NOT x` operands are subtracted (`andNot`) instead of
 *   being complemented.
 * - OR unions its operands into one owned set, in one pass per four operands.
 * - NOT is `all()` minus the child (deleted documents never come back through a complement).
 *
 * Sets from the source may be shared with the index: they are cloned before any mutation. The returned set
 * always belongs to the caller.
 */
export function evaluateFilter(node: FilterNode, source: FilterSource): Bitset {
  const result = run(node, source, freshSets);
  return result.owned ? result.set : result.set.clone();
}

/** Where an evaluation gets the sets it owns. */
export interface SetAllocator {
  /** An empty set. */
  acquire(capacity: number): Bitset;
  /** A set the caller overwrites entirely (its words may hold anything). */
  scratch(capacity: number): Bitset;
  copy(set: Bitset): Bitset;
}

const freshSets: SetAllocator = { acquire: (capacity) => new Bitset(capacity), scratch: (capacity) => new Bitset(capacity), copy: (set) => set.clone() };

/** A filter as the sets to intersect and the sets to subtract (see `evaluateFilterConjuncts`). */
export interface FilterConjuncts {
  /** At least one. */
  include: Bitset[];
  exclude: Bitset[];
}

/**
 * The filter's documents as the operands of its top-level AND, for a caller that intersects them with other sets
 * anyway (the search, with the query words): `a AND (b OR c) AND NOT d` gives include [a, b ∪ c] and exclude
 * [d], so the AND itself costs no pass of its own (InstantSearch's `(brand:a OR brand:b) AND color:c` is a union
 * and the caller's intersection, instead of a copy, an OR, an AND and the intersection). The caller only reads
 * the sets, before `sets` takes its own back: a leaf's set is the index's own (no copy).
 */
export function evaluateFilterConjuncts(node: FilterNode, source: FilterSource, sets: SetAllocator): FilterConjuncts {
  if (node.kind !== 'and') return { include: [run(node, source, sets).set], exclude: [] };
  const include: Bitset[] = [];
  const exclude: Bitset[] = [];
  // Trees are flat (see nodes.ts): the children of an AND are leaves, ORs and NOTs, never ANDs.
  for (const child of node.children) {
    if (child.kind === 'not') exclude.push(run(child.child, source, sets).set);
    else include.push(run(child, source, sets).set);
  }
  if (include.length === 0) include.push(source.all());
  return { include, exclude };
}

interface Result {
  set: Bitset;
  /** True when this evaluation allocated the set and may mutate it. */
  owned: boolean;
}

interface Operand {
  node: FilterNode;
  /** For AND: the result is subtracted rather than intersected (the operand was `NOT node`). */
  subtract: boolean;
}

interface Frame {
  kind: 'and' | 'or' | 'not';
  operands: Operand[];
  next: number;
  /** AND: intersected operands not yet folded into `acc` (NOT: its one operand; OR: every operand). */
  positives: Array<Result & { estimate: number }>;
  negatives: Result[];
  /** AND: the running intersection. Always owned. */
  acc: Bitset | null;
  /** Set when an AND is known to be empty: the remaining operands need not be evaluated. */
  empty: boolean;
}

function run(root: FilterNode, source: FilterSource, sets: SetAllocator): Result {
  const first = start(root, source, sets);
  if (!isFrame(first)) return first;
  const stack: Frame[] = [first];
  let returned: Result | undefined;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    if (returned !== undefined) {
      accept(frame, returned);
      returned = undefined;
    }
    if (frame.empty || frame.next >= frame.operands.length) {
      returned = finish(frame, source, sets);
      stack.pop();
      continue;
    }
    const operand = frame.operands[frame.next];
    if (frame.kind === 'and' && isGroup(operand.node)) {
      // Leaves come first: intersect them before paying for a group, which may then be skipped.
      foldPositives(frame, sets);
      if (frame.empty) continue;
    }
    frame.next++;
    const started = start(operand.node, source, sets);
    if (isFrame(started)) stack.push(started);
    else returned = started;
  }
  return returned!;
}

function isFrame(value: Result | Frame): value is Frame {
  return 'operands' in value;
}

/** Leaves evaluate at once; groups become a frame whose operands the loop evaluates one by one. */
function start(node: FilterNode, source: FilterSource, sets: SetAllocator): Result | Frame {
  switch (node.kind) {
    case 'facet':
      return { set: source.facet(node.attribute, node.value), owned: false };
    case 'tag':
      return { set: source.tag(node.value), owned: false };
    case 'numeric':
      return { set: source.numeric(node.attribute, node.operator, node.value), owned: false };
    case 'range':
      return { set: source.range(node.attribute, node.lower, node.upper), owned: false };
    case 'boolean':
      return node.value ? { set: source.all(), owned: false } : { set: sets.acquire(source.capacity), owned: true };
    case 'not':
      return frame('not', [{ node: node.child, subtract: false }]);
    case 'or':
      return frame('or', node.children.map((child) => ({ node: child, subtract: false })));
    case 'and': {
      const operands = node.children.map((child) =>
        child.kind === 'not' ? { node: child.child, subtract: true } : { node: child, subtract: false },
      );
      // Leaves first: they are one source lookup each and most likely to empty the AND early.
      const leaves = operands.filter((operand) => !isGroup(operand.node));
      const groups = operands.filter((operand) => isGroup(operand.node));
      return frame('and', leaves.concat(groups));
    }
  }
}

function isGroup(node: FilterNode): boolean {
  return node.kind === 'and' || node.kind === 'or' || node.kind === 'not';
}

function frame(kind: Frame['kind'], operands: Operand[]): Frame {
  return { kind, operands, next: 0, positives: [], negatives: [], acc: null, empty: false };
}

function accept(frame: Frame, result: Result): void {
  if (frame.kind === 'or') {
    // Unioned all at once in finish().
    frame.positives.push({ ...result, estimate: 0 });
    return;
  }
  // NOT keeps its single operand as a positive; finish() complements it.
  if (frame.operands[frame.next - 1].subtract) {
    frame.negatives.push(result);
    return;
  }
  const estimate = estimateCount(result.set);
  if (frame.kind === 'and' && estimate === 0 && result.set.isEmpty()) frame.empty = true;
  frame.positives.push({ ...result, estimate });
}

/** AND: intersects the pending operands into the running result, smallest estimate first. */
function foldPositives(frame: Frame, sets: SetAllocator): void {
  if (frame.empty || frame.positives.length === 0) return;
  const pending = frame.positives.sort((a, b) => a.estimate - b.estimate);
  frame.positives = [];
  let i = 0;
  if (frame.acc === null) {
    frame.acc = pending[0].owned ? pending[0].set : sets.copy(pending[0].set);
    i = 1;
  }
  for (; i < pending.length; i++) frame.acc.and(pending[i].set);
  // Cheap when non-empty: isEmpty() stops at the first set word.
  if (frame.acc.isEmpty()) frame.empty = true;
}

function finish(frame: Frame, source: FilterSource, sets: SetAllocator): Result {
  if (frame.kind === 'or') {
    const operands = frame.positives;
    if (operands.length === 0) return { set: sets.acquire(source.capacity), owned: true };
    if (operands.length === 1) return operands[0];
    const union = sets.scratch(source.capacity);
    unionInto(union, operands.map((operand) => operand.set));
    return { set: union, owned: true };
  }
  if (frame.kind === 'not') {
    const child = frame.positives[0];
    const set = child.owned ? child.set.not().and(source.all()) : sets.copy(source.all()).andNot(child.set);
    return { set, owned: true };
  }
  foldPositives(frame, sets);
  if (frame.empty) return { set: sets.acquire(source.capacity), owned: true };
  const acc = frame.acc ?? sets.copy(source.all());
  for (const negative of frame.negatives) acc.andNot(negative.set);
  return { set: acc, owned: true };
}

/**
 * Approximate member count from at most ~256 evenly spaced words (exact for sets of up to 8,192 ids): enough to
 * order AND operands, for a fraction of a full popcount pass.
 */
function estimateCount(set: Bitset): number {
  const words = set.words;
  const stride = Math.max(1, Math.floor(words.length / 256));
  let sampled = 0;
  for (let i = 0; i < words.length; i += stride) sampled += popcount(words[i]);
  return sampled * stride;
}
