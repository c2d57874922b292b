// Frozen copy of highlight/record.ts as of commit a7c87ba: the reference the optimised code is tested against.
// Test and benchmark use only; do not change (see ./index.ts), except where the meaning of a path changed
// (keys holding dots: every cut of the path the record holds is mirrored).
import type { HighlightResult, HighlightResultOption, SnippetResult } from '@vitrine/protocol';
import { pathCuts } from '../../index/path-cuts.ts';
import { snippetText } from './snippet.ts';
import { analyseText, matchedWordsOf, matchLevelOf, renderText } from './text.ts';
import type { HighlightOptions, HighlightQuery, SnippetOptions } from '../types.ts';

/**
 * Walking records for `_highlightResult` / `_snippetResult`: the result mirrors the value's shape (objects →
 * objects, arrays → arrays, strings and numbers → a result option). Booleans and nulls have no text to
 * highlight: they are left out of objects, and inside arrays they become a plain option (their string form)
 * so that indexes keep lining up with the record's.
 */

/** Records nest this deep at most in practice; deeper values are left out rather than risking the stack. */
const MAX_DEPTH = 64;

/** Attribute paths to visit: `*` means every top-level attribute except objectID and `_`-prefixed ones. */
function resolvePaths(record: Record<string, unknown>, attributes: string[]): string[][] {
  const paths: string[][] = [];
  for (const attribute of attributes) {
    if (attribute === '*') {
      for (const key of Object.keys(record)) if (key !== 'objectID' && !key.startsWith('_')) paths.push([key]);
    } else {
      // Every way of cutting the dotted path into keys that the record holds (keys may contain dots).
      paths.push(...pathCuts(attribute.split('.')).filter((keys) => valueAt(record, keys) !== undefined));
    }
  }
  return paths;
}

function valueAt(record: Record<string, unknown>, path: string[]): unknown {
  let current: unknown = record;
  for (const part of path) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Own-property assignment: a record key such as `__proto__` must become a plain key, never a prototype. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function setAt(target: Record<string, unknown>, path: string[], value: unknown): void {
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
  for (const [key, item] of Object.entries(value)) {
    const result = mirror(item, leaf, depth + 1);
    if (result !== undefined) setOwn(out, key, result);
  }
  return out;
}

function collect<T>(
  record: Record<string, unknown>,
  attributes: string[],
  leaf: (text: string) => T,
  result: Record<string, unknown> = {},
): Record<string, T> {
  for (const path of resolvePaths(record, attributes)) {
    const mirrored = mirror(valueAt(record, path), leaf);
    if (mirrored !== undefined) setAt(result, path, mirrored);
  }
  return result as Record<string, T>;
}

export function highlightText(text: string, query: HighlightQuery, options: HighlightOptions): HighlightResultOption {
  const match = analyseText(text, query, options.separatorsToIndex);
  const matchedWords = matchedWordsOf(match, query);
  const option: HighlightResultOption = { value: renderText(match, options), matchLevel: matchLevelOf(match), matchedWords };
  if (matchedWords.length > 0) option.fullyHighlighted = match.fullyCovered;
  return option;
}

/** `_highlightResult` of one hit for the given attributes (`*` for all, dotted paths for nested values). */
export function highlightRecord(
  record: Record<string, unknown>,
  attributes: string[],
  query: HighlightQuery,
  options: HighlightOptions,
): Record<string, HighlightResult> {
  return collect(record, attributes, (text) => highlightText(text, query, options));
}

/** `_snippetResult` of one hit: each spec's attribute cut to `words` words around its best match. */
export function snippetRecord(
  record: Record<string, unknown>,
  specs: Array<{ attribute: string; words: number }>,
  query: HighlightQuery,
  options: SnippetOptions,
): Record<string, SnippetResult> {
  // One target for every spec, so `a.b:5` and `a.c:10` end up side by side under `a`.
  const result: Record<string, unknown> = {};
  for (const spec of specs) {
    collect(record, [spec.attribute], (text) => snippetText(analyseText(text, query, options.separatorsToIndex), spec.words, options), result);
  }
  return result as Record<string, SnippetResult>;
}

/** `highlighted` of a search-for-facet-values hit. */
export function highlightFacetValue(value: string, query: HighlightQuery, options: HighlightOptions): string {
  return renderText(analyseText(value, query, options.separatorsToIndex), options);
}
