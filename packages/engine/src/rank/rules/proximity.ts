/**
 * `proximity`: query words closer together first: the sum, over consecutive query words, of their smallest
 * distance within one attribute (capped at 8, reversed order costing one more, floored at `minProximity`).
 */
import type { RuleFactory } from '../rule.ts';
import type { ExpandedWord } from '../../query/expand.ts';
import type { AdjacentPairs } from '../../index/adjacent-pairs.ts';

/** Past this many (term, term) combinations for one pair of words, the pair's floor is not looked up. */
const MAX_COMBINATIONS = 4096;

export const proximityRule: RuleFactory = (context) => {
  const { words, scanner } = context;
  if (words.length < 2) return null;
  if (!context.verify) {
    const floors = pairFloors(words, context.adjacentPairs(), context.minProximity);
    scanner.usePairFloors(floors);
    // With every word required, no document beats the sum of the pairs' floors.
    const floor = context.hasOptionalWords ? undefined : floors.reduce((sum, f) => sum + f, 0);
    return {
      name: 'proximity',
      key: (doc) => scanner.proximityOf(doc),
      keys: (docs, out) => scanner.proximitiesOf(docs, out),
      ...(floor === undefined ? {} : { floor }),
    };
  }
  return {
    name: 'proximity',
    key(doc) {
      scanner.scan(doc);
      return scanner.proximityAt(doc);
    },
  };
};

/**
 * Per pair of consecutive words, the smallest distance any document can have: `minProximity`, or 2 when no term
 * of the first word is ever followed by a term of the second (nor shares a position with one).
 */
export function pairFloors(words: ExpandedWord[], pairs: AdjacentPairs, minProximity: number): number[] {
  const floors: number[] = [];
  for (let w = 0; w + 1 < words.length; w++) {
    const floor = Math.max(1, minProximity);
    floors.push(floor === 1 && !mayBeAdjacent(words[w], words[w + 1], pairs) ? 2 : floor);
  }
  return floors;
}

function mayBeAdjacent(first: ExpandedWord, second: ExpandedWord, pairs: AdjacentPairs): boolean {
  const a = first.alternatives;
  const b = second.alternatives;
  if (a.length * b.length > MAX_COMBINATIONS) return true;
  for (const x of a) {
    for (const y of b) {
      // One term matching both words counts as distance 1.
      if (x.termId === y.termId || pairs.mayFollow(x.termId, y.termId)) return true;
    }
  }
  return false;
}
