/**
 * The list forms of filtering: `facetFilters`, `numericFilters`, `tagFilters` and `optionalFilters`.
 *
 * On the wire each is a string, an array (AND) whose nested arrays are OR groups, or — when a v4 client puts it
 * inside the url-encoded `params` — that array as a JSON string (`'["a:b",["c:d","c:e"]]'`). A plain string
 * that is not JSON is one single filter (no comma splitting: values may contain commas).
 * Empty OR groups are ignored rather than matching nothing: clients send `[]` to mean "no refinement".
 */
import type { FilterList } from '@vitrine/protocol';
import { createEngineError, type EngineErrorCode } from '../errors.ts';
import { resolveLimits } from './limits.ts';
import { andNode, orNode } from './nodes.ts';
import { equalityNode, isFilterScore, parseFilterNumber } from './parser.ts';
import { ladder } from './score.ts';
import type { FilterLimits, FilterNode, NumericOperator, OptionalFilter } from './types.ts';

export type { OptionalFilter } from './types.ts';

type ListCode = Extract<
  EngineErrorCode,
  'INVALID_FACET_FILTER' | 'INVALID_NUMERIC_FILTER' | 'INVALID_TAG_FILTER' | 'INVALID_OPTIONAL_FILTER'
>;

/** The AND-of-OR-groups shape every list form shares, validated and bounded by `maxTerms`. */
export function readFilterList(list: unknown, code: ListCode, limits?: Partial<FilterLimits>): string[][] {
  if (list === undefined || list === null) return [];
  const { maxTerms, maxDepth } = resolveLimits(limits);
  let value: unknown = list;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (!trimmed.startsWith('[')) return trimmed.length === 0 ? [] : [[value]];
    try {
      value = JSON.parse(trimmed) as unknown;
    } catch {
      throw createEngineError(code, 'a string starting with "[" must be a JSON array');
    }
  }
  if (!Array.isArray(value)) throw createEngineError(code, 'expected a string or an array of strings and arrays');
  const groups: string[][] = [];
  let terms = 0;
  const count = (n: number) => {
    terms += n;
    if (terms > maxTerms) throw createEngineError(code, `too many filters (the limit is ${maxTerms})`);
  };
  for (const entry of value) {
    if (typeof entry === 'string') {
      count(1);
      groups.push([entry]);
    } else if (Array.isArray(entry)) {
      const group = flattenGroup(entry, code, maxDepth);
      if (group.length === 0) continue;
      count(group.length);
      groups.push(group);
    } else {
      throw createEngineError(code, 'expected a string or an array of strings and arrays');
    }
  }
  return groups;
}

/**
 * An OR group's strings. Algolia accepts groups nested deeper (`["a:1", ["b:2", ["c:3"]]]` answers 200): a
 * nested array inside an OR group adds its strings to that group (OR of ORs), down to `maxDepth` levels.
 */
function flattenGroup(group: unknown[], code: ListCode, maxDepth: number): string[] {
  const strings: string[] = [];
  const pending: Array<{ items: unknown[]; depth: number }> = [{ items: group, depth: 1 }];
  while (pending.length > 0) {
    const { items, depth } = pending.pop()!;
    if (depth > maxDepth) throw createEngineError(code, `nested deeper than ${maxDepth} levels`);
    for (const item of items) {
      if (typeof item === 'string') strings.push(item);
      else if (Array.isArray(item)) pending.push({ items: item, depth: depth + 1 });
      else throw createEngineError(code, 'OR groups may only contain strings and arrays of strings');
    }
  }
  return strings;
}

function combine(groups: FilterNode[][]): FilterNode | null {
  if (groups.length === 0) return null;
  return andNode(groups.map((group) => orNode(group)));
}

/** Index of the first colon not escaped by a backslash, or -1. */
function firstUnescapedColon(text: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === ':') return i;
  }
  return -1;
}

/**
 * One `attr:value` entry. Splits on the first unescaped colon (values may contain colons; an attribute may
 * escape one as `\:`). `attr:-value` negates; `attr:\-value` is the literal value `-value`.
 */
export function parseFacetEntry(entry: string, code: ListCode): FilterNode {
  const colon = firstUnescapedColon(entry);
  if (colon < 0) throw createEngineError(code, `${JSON.stringify(entry)} is not of the form attribute:value`);
  const attribute = entry.slice(0, colon).replace(/\\(.)/g, '$1').trim();
  if (attribute.length === 0) throw createEngineError(code, `${JSON.stringify(entry)} has no attribute name`);
  let value = entry.slice(colon + 1);
  let negated = false;
  if (value.startsWith('-')) {
    negated = true;
    value = value.slice(1);
  } else if (value.startsWith('\\-')) {
    value = value.slice(1);
  }
  const node = equalityNode(attribute, value);
  return negated ? { kind: 'not', child: node } : node;
}

export function facetFiltersToNode(list: FilterList, limits?: Partial<FilterLimits>): FilterNode | null {
  const groups = readFilterList(list, 'INVALID_FACET_FILTER', limits);
  return combine(groups.map((group) => group.map(parseScoredFacetEntry)));
}

/** A `facetFilters` entry, with an optional `<score=N>` (filter scoring: it ranks, never filters). */
function parseScoredFacetEntry(entry: string): FilterNode {
  const { text, score } = splitScore(entry, 'INVALID_FACET_FILTER', isFilterScore, 'an integer from 0 to 65535');
  const node = parseFacetEntry(text, 'INVALID_FACET_FILTER');
  if (score === undefined || (node.kind !== 'facet' && node.kind !== 'tag')) return node;
  return { ...node, score };
}

/** `text<score=N>` → text and N; no suffix → the entry as it is. */
function splitScore(entry: string, code: ListCode, valid: (score: number) => boolean, expected: string): { text: string; score?: number } {
  const suffix = SCORE_SUFFIX.exec(entry);
  if (!suffix) return { text: entry };
  const score = parseFilterNumber(suffix[1].trim());
  if (score === undefined || !valid(score)) {
    throw createEngineError(code, `${JSON.stringify(entry)} has an invalid score (expected <score=N>, N ${expected})`);
  }
  return { text: entry.slice(0, suffix.index), score };
}

const OPERATOR_START = /[<>=!:]/;

/** One `attr op number` or `attr:lower TO upper` entry. Hand-written: a regex here would backtrack on spaces. */
export function parseNumericEntry(entry: string): FilterNode {
  const fail = (why: string) => createEngineError('INVALID_NUMERIC_FILTER', `${JSON.stringify(entry)} ${why}`);
  const at = entry.search(OPERATOR_START);
  if (at < 0) throw fail('has no operator (expected <, <=, =, !=, >=, > or attr:lower TO upper)');
  const attribute = entry.slice(0, at).trim();
  if (attribute.length === 0) throw fail('has no attribute name');
  const number = (text: string | undefined) => {
    const value = text === undefined ? undefined : parseFilterNumber(text);
    if (value === undefined) throw fail(`needs a number, got ${JSON.stringify(text ?? '')}`);
    return value;
  };
  if (entry[at] === ':') {
    const parts = entry.slice(at + 1).trim().split(/\s+/);
    if (parts.length !== 3 || parts[1] !== 'TO') throw fail('is not of the form attr:lower TO upper');
    return { kind: 'range', attribute, lower: number(parts[0]), upper: number(parts[2]) };
  }
  const twoChars = entry[at + 1] === '=';
  if (entry[at] === '!' && !twoChars) throw fail('has "!" without "="');
  if (entry[at] === '=' && twoChars) throw fail('has "==" (use "=")');
  const operator = (twoChars ? entry.slice(at, at + 2) : entry[at]) as NumericOperator;
  return { kind: 'numeric', attribute, operator, value: number(entry.slice(at + (twoChars ? 2 : 1)).trim()) };
}

export function numericFiltersToNode(list: FilterList, limits?: Partial<FilterLimits>): FilterNode | null {
  const groups = readFilterList(list, 'INVALID_NUMERIC_FILTER', limits);
  return combine(groups.map((group) => group.map(parseNumericEntry)));
}

/** A tag entry: `tag`, `-tag` (negated) or `\-tag` (the literal tag `-tag`). Tags match case-sensitively. */
function parseTagEntry(entry: string): FilterNode {
  if (entry.startsWith('-')) return { kind: 'not', child: { kind: 'tag', value: entry.slice(1) } };
  return { kind: 'tag', value: entry.startsWith('\\-') ? entry.slice(1) : entry };
}

export function tagFiltersToNode(list: FilterList, limits?: Partial<FilterLimits>): FilterNode | null {
  const groups = readFilterList(list, 'INVALID_TAG_FILTER', limits);
  return combine(groups.map((group) => group.map(parseTagEntry)));
}

const SCORE_SUFFIX = /<score=([^>]*)>$/;


/**
 * `optionalFilters`: each entry, or each OR group, is one optional filter; `attr:value<score=N>` weighs it
 * (default 1). Negative entries (`attr:-value`) boost the records *without* the value.
 *
 * Scores are meant to be summed over the returned list. Inside an OR group Algolia counts the best matching
 * element (or the sum, with `sumOrFiltersScores`). With equal scores a group is one OR node; with different
 * scores it becomes a telescoping ladder — one OR node per distinct score s_i over the elements scoring at
 * least s_i, weighing s_i − s_(i−1) — so that the sum over matched nodes is exactly the best element's score.
 */
export function optionalFiltersToNodes(
  list: FilterList,
  options: { sumOrFiltersScores?: boolean; limits?: Partial<FilterLimits> } = {},
): OptionalFilter[] {
  const groups = readFilterList(list, 'INVALID_OPTIONAL_FILTER', options.limits);
  const result: OptionalFilter[] = [];
  for (const group of groups) {
    const items = group.map(parseOptionalEntry);
    if (items.length === 1 || options.sumOrFiltersScores) {
      result.push(...items);
      continue;
    }
    result.push(...ladder(items));
  }
  return result;
}

function parseOptionalEntry(entry: string): OptionalFilter {
  const { text, score } = splitScore(entry, 'INVALID_OPTIONAL_FILTER', (n) => n >= 0, '≥ 0');
  return { node: parseFacetEntry(text, 'INVALID_OPTIONAL_FILTER'), score: score ?? 1 };
}
