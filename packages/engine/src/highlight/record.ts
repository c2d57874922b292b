import type { HighlightResult, HighlightResultOption, SnippetResult, SnippetResultOption } from '@vitrine/protocol';
import { keyPathsIn, parsePath, setOwn } from '../index/attributes.ts';
import { snippetText } from './snippet.ts';
import { WordMatcher } from './terms.ts';
import { analyseText, renderWhole, type TextMatch } from './text.ts';
import type { HighlightOptions, HighlightQuery, HighlightWord, SnippetOptions } from './types.ts';

/**
 * Walking records for `_highlightResult` / `_snippetResult`: the result mirrors the value's shape (objects →
 * objects, arrays → arrays, strings and numbers → a result option). Booleans and nulls have no text to
 * highlight: they are left out of objects, and inside arrays they become a plain option (their string form)
 * so that indexes keep lining up with the record's.
 */

/** Records nest this deep at most in practice; deeper values are left out rather than risking the stack. */
const MAX_DEPTH = 64;

function valueAt(record: Record<string, unknown>, keys: readonly string[]): unknown {
  let current: unknown = record;
  for (const key of keys) current = (current as Record<string, unknown>)[key];
  return current;
}

function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (let i = 0; i < path.length - 1; i++) {
    const existing = Object.hasOwn(node, path[i]) ? node[path[i]] : undefined;
    if (existing === null || typeof existing !== 'object' || Array.isArray(existing)) {
      const child: Record<string, unknown> = {};
      setOwn(node, path[i], child);
      node = child;
    } else {
      node = existing as Record<string, unknown>;
    }
  }
  setOwn(node, path[path.length - 1], value);
}

/** Maps a record value to the mirrored result; `leaf` turns each string (numbers as their string form) into an option. */
function mirror<T>(value: unknown, leaf: (text: string) => T, depth = 0): T | T[] | Record<string, unknown> | undefined {
  if (typeof value === 'string') return leaf(value);
  if (typeof value === 'number') return Number.isFinite(value) ? leaf(String(value)) : undefined;
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    return value.map((item) => {
      const result = mirror(item, leaf, depth + 1);
      return (result ?? leaf(item === null || item === undefined ? '' : String(item))) as T;
    });
  }
  const out: Record<string, unknown> = {};
  const object = value as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const result = mirror(object[key], leaf, depth + 1);
    if (result !== undefined) setOwn(out, key, result);
  }
  return out;
}

/**
 * Mirrors the attributes into `result`: `*` means every top-level attribute except objectID and `_`-prefixed
 * ones; a dotted path is mirrored wherever the record spells it (`{"a.b": …}`, `{"a": {"b": …}}`, both when it
 * holds both: see `index/attributes.ts`), under the record's own keys.
 */
function collect<T>(
  record: Record<string, unknown>,
  attributes: string[],
  leaf: (text: string) => T,
  result: Record<string, unknown> = {},
): Record<string, T> {
  for (const attribute of attributes) collectOne(record, attribute, leaf, result);
  return result as Record<string, T>;
}

/** `collect` of one attribute. */
function collectOne<T>(record: Record<string, unknown>, attribute: string, leaf: (text: string) => T, result: Record<string, unknown>): void {
  if (attribute === '*') {
    for (const key of Object.keys(record)) {
      if (key === 'objectID' || key.startsWith('_')) continue;
      const mirrored = mirror(record[key], leaf);
      if (mirrored !== undefined) setOwn(result, key, mirrored);
    }
    return;
  }
  const path = parsePath(attribute);
  if (path.length === 1) {
    if (!Object.hasOwn(record, attribute)) return;
    const mirrored = mirror(record[attribute], leaf);
    if (mirrored !== undefined) setOwn(result, attribute, mirrored);
    return;
  }
  for (const keys of keyPathsIn(record, path)) {
    const mirrored = mirror(valueAt(record, keys), leaf);
    if (mirrored !== undefined) setAt(result, keys, mirrored);
  }
}

/**
 * Analysed values remembered, for the page that last analysed one: a direct-mapped table of ANALYSES slots
 * (by length and three characters; a value evicts whatever shared its slot), shared by every page. A map per
 * page grew, and was rehashed, through every page's values: most of them are seen once (names, descriptions),
 * the ones worth remembering (brands, category paths, a value snippeted right after it was highlighted) come
 * back soon. A page that takes the table from another (hits built a few at a time while other searches run)
 * starts it afresh: answers never depend on it, only the work does.
 */
const ANALYSES = 64;
const analysedTexts: Array<string | null> = new Array<string | null>(ANALYSES).fill(null);
const analysedMatches: Array<TextMatch | null> = new Array<TextMatch | null>(ANALYSES).fill(null);
/** The `page` of the state that filled the table (0: none). */
let analysesOwner = 0;
let pages = 0;

function analysisSlot(text: string): number {
  const n = text.length;
  if (n === 0) return 0;
  return (Math.imul(n, 0x9e3779b1) ^ (text.charCodeAt(0) * 31) ^ (text.charCodeAt(n >>> 1) * 7) ^ text.charCodeAt(n - 1)) & (ANALYSES - 1);
}

/**
 * What the hits of one page share, hung off their query object: term matches (typo matching is costly and a
 * page repeats the same words) and analysed values (the hits of a page share brands and category paths, and
 * a snippet re-reads the value its highlight just analysed). Analyses depend on separatorsToIndex and are
 * dropped when it changes; each remembers its rendering for the last tags asked.
 */
class PageState {
  /** Null for a query without words: values are then only cut into tokens (for snippets). */
  private readonly matcher: WordMatcher | null;
  private separators = '';
  /** Tells this page's entries of the shared table from another's. */
  private readonly page = ++pages;

  /**
   * The options of the hit being built, and its leaves: made once per page rather than a closure per hit and
   * spec (no leaf calls back into another hit's, so one set of options at a time is enough).
   */
  private highlightOptions: HighlightOptions | null = null;
  private snippetOptions: SnippetOptions | null = null;
  private snippetWords = 0;
  readonly highlightLeaf = (text: string): HighlightResultOption => highlightText(text, this, this.highlightOptions!);
  readonly snippetLeaf = (text: string): SnippetResultOption => snippetText(this.analysis(text, this.snippetOptions!.separatorsToIndex), this.snippetWords, this.snippetOptions!, this.matcher);

  constructor(readonly words: HighlightWord[]) {
    this.matcher = words.length === 0 ? null : new WordMatcher(words);
  }

  highlightWith(options: HighlightOptions): void {
    this.highlightOptions = options;
  }

  snippetWith(options: SnippetOptions, words: number): void {
    this.snippetOptions = options;
    this.snippetWords = words;
  }

  /** The analysis of `text`, remembered while its slot holds it (see ANALYSES). */
  analysis(text: string, separatorsToIndex: string): TextMatch {
    if (analysesOwner !== this.page || separatorsToIndex !== this.separators) {
      analysedTexts.fill(null);
      analysedMatches.fill(null);
      analysesOwner = this.page;
      this.separators = separatorsToIndex;
    }
    const slot = analysisSlot(text);
    if (analysedTexts[slot] === text) return analysedMatches[slot]!;
    const match = analyseText(text, this.matcher, separatorsToIndex);
    analysedTexts[slot] = text;
    analysedMatches[slot] = match;
    return match;
  }
}

/**
 * The state rides on the query object itself, under a symbol, so that it lives and dies with the query. A
 * WeakMap would do the same in principle, but measured on Node 20, young-generation collections kept its
 * values alive until a full collection: every page's state was promoted and GC took a third of the time.
 * Not enumerable: the query's JSON and keys are unchanged. A frozen query just gets no memory across calls.
 */
const STATE = Symbol('highlight page state');

function pageState(query: HighlightQuery): PageState {
  const holder = query as HighlightQuery & { [STATE]?: PageState };
  let state = holder[STATE];
  if (state === undefined || state.words !== query.words) {
    state = new PageState(query.words);
    if (Object.isExtensible(query)) Object.defineProperty(query, STATE, { value: state, writable: true, configurable: true });
  }
  return state;
}

/** A value with nothing to match (empty query): as-is, no tags, no matched words. */
function plainOption(text: string): HighlightResultOption {
  return { value: text, matchLevel: 'none', matchedWords: [] };
}

function highlightText(text: string, state: PageState, options: HighlightOptions): HighlightResultOption {
  const match = state.analysis(text, options.separatorsToIndex);
  const { matchLevel, matchedWords } = match;
  // Fresh objects every time: hits must not share results, even when the page shares the work.
  if (matchedWords.length === 0) return { value: match.text, matchLevel, matchedWords: [] };
  return { value: renderWhole(match, options.preTag, options.postTag), matchLevel, matchedWords: matchedWords.slice(), fullyHighlighted: match.fullyCovered };
}

/** `_highlightResult` of one hit for the given attributes (`*` for all, dotted paths for nested values). */
export function highlightRecord(
  record: Record<string, unknown>,
  attributes: string[],
  query: HighlightQuery,
  options: HighlightOptions,
): Record<string, HighlightResult> {
  // A category landing page has no query words: every value comes back as it is, with no analysis at all.
  if (query.words.length === 0) return collect(record, attributes, plainOption);
  const state = pageState(query);
  state.highlightWith(options);
  return collect(record, attributes, state.highlightLeaf);
}

/** `_snippetResult` of one hit: each spec's attribute cut to `words` words around its best match. */
export function snippetRecord(
  record: Record<string, unknown>,
  specs: Array<{ attribute: string; words: number }>,
  query: HighlightQuery,
  options: SnippetOptions,
): Record<string, SnippetResult> {
  const state = pageState(query);
  // One target for every spec, so `a.b:5` and `a.c:10` end up side by side under `a`.
  const result: Record<string, unknown> = {};
  for (const spec of specs) {
    state.snippetWith(options, spec.words);
    collectOne(record, spec.attribute, state.snippetLeaf, result);
  }
  return result as Record<string, SnippetResult>;
}

/** `highlighted` of a search-for-facet-values hit. */
export function highlightFacetValue(value: string, query: HighlightQuery, options: HighlightOptions): string {
  return renderWhole(pageState(query).analysis(value, options.separatorsToIndex), options.preTag, options.postTag);
}
