import { orNode } from './nodes.ts';
import type { FilterNode, OptionalFilter } from './types.ts';

/**
 * Filter scoring: `(brand:Apple<score=3> OR brand:Samsung<score=2> OR brand:Huawei)` in `filters` or
 * `facetFilters` filters as usual and ranks the records it keeps by score, through the `filters` ranking
 * criterion, as optional filters do. Returned as terms (a node and a weight) whose weights a record sums over
 * the terms it matches, so the ranking criterion treats them exactly like optional filters.
 *
 * What a record scores, as Algolia documents it:
 * - an OR group scores its best matching element (unscored ones count 1), or the sum of those it matches with
 *   `sumOrFiltersScores`;
 * - an AND adds up its parts: every record kept matches each of them, so only the OR groups inside tell the
 *   records apart;
 * - numeric, range and negated conditions carry no score of their own; inside an OR group they count 1, as does
 *   a nested group.
 * A filter without any `<score=N>` ranks nothing (every record kept scores the same): no terms, no cost.
 */
export function filterScoreTerms(node: FilterNode | null, options: { sumOrFiltersScores?: boolean } = {}): OptionalFilter[] {
  if (node === null || !hasScore(node)) return [];
  const terms: OptionalFilter[] = [];
  collect(node, options.sumOrFiltersScores === true, terms);
  return terms;
}

function collect(node: FilterNode, sum: boolean, terms: OptionalFilter[]): void {
  if (node.kind === 'and') {
    for (const child of node.children) collect(child, sum, terms);
  } else if (node.kind === 'or') {
    const items = node.children.map((child) => ({ node: child, score: elementScore(child) }));
    if (sum) terms.push(...items.filter((item) => item.score > 0));
    else terms.push(...ladder(items));
  } else if ((node.kind === 'facet' || node.kind === 'tag') && node.score !== undefined && node.score > 0) {
    // Alone (under an AND or at the top), every record kept matches it: a constant, kept for _rankingInfo.
    terms.push({ node, score: node.score });
  }
}

function elementScore(node: FilterNode): number {
  return (node.kind === 'facet' || node.kind === 'tag') && node.score !== undefined ? node.score : 1;
}

/**
 * The best element's score as a sum of indicator terms: one OR node per distinct score s over the elements
 * scoring at least s, weighing s minus the previous score (a record matching elements of 3 and 1 matches the
 * terms of weight 1 and 2: 3 in all).
 */
export function ladder(items: OptionalFilter[]): OptionalFilter[] {
  const scores = [...new Set(items.map((item) => item.score))].filter((score) => score > 0).sort((a, b) => a - b);
  const terms: OptionalFilter[] = [];
  let previous = 0;
  for (const score of scores) {
    terms.push({ node: orNode(items.filter((item) => item.score >= score).map((item) => item.node)), score: score - previous });
    previous = score;
  }
  return terms;
}

function hasScore(node: FilterNode): boolean {
  const pending: FilterNode[] = [node];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if ((next.kind === 'facet' || next.kind === 'tag') && next.score !== undefined) return true;
    if (next.kind === 'and' || next.kind === 'or') pending.push(...next.children);
    else if (next.kind === 'not') pending.push(next.child);
  }
  return false;
}
