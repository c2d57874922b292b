/**
 * Reading attribute values out of records: dotted paths into nested objects (`hierarchicalCategories.lvl0`),
 * arrays flattened element by element, as Algolia treats them for search, facets and filters.
 */

/** Splits `a.b.c` once per setting, not once per record. */
export function parsePath(attribute: string): string[] {
  return attribute.split('.');
}

/** Every leaf under `path` (arrays flattened, objects walked in key order), in record order. */
export function leavesAt(record: Record<string, unknown>, path: string[], visit: (leaf: unknown) => void): void {
  walk(record, path, 0, visit);
}

// Module-level recursion rather than a closure per call: this runs for every attribute of every record.
function walk(value: unknown, path: string[], depth: number, visit: (leaf: unknown) => void): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) walk(value[i], path, depth, visit);
    return;
  }
  if (typeof value === 'object') {
    if (depth < path.length) walk((value as Record<string, unknown>)[path[depth]], path, depth + 1, visit);
    else for (const key in value as object) walk((value as Record<string, unknown>)[key], path, depth, visit);
    return;
  }
  if (depth === path.length) visit(value);
}

/** Leaves under `path` into `out` (no callback: the indexing hot path). */
function collectLeaves(value: unknown, path: string[], depth: number, out: unknown[]): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) collectLeaves(value[i], path, depth, out);
    return;
  }
  if (typeof value === 'object') {
    if (depth < path.length) collectLeaves((value as Record<string, unknown>)[path[depth]], path, depth + 1, out);
    else for (const key in value as object) collectLeaves((value as Record<string, unknown>)[key], path, depth, out);
    return;
  }
  if (depth === path.length) out.push(value);
}

/** Every leaf under `path`, in record order. */
export function leaves(record: Record<string, unknown>, path: string[]): unknown[] {
  const out: unknown[] = [];
  collectLeaves(record, path, 0, out);
  return out;
}

/** Text of the searchable leaves under `path`: strings and numbers (numbers are words too). */
export function searchableTexts(record: Record<string, unknown>, path: string[]): string[] {
  const texts: string[] = [];
  for (const leaf of leaves(record, path)) {
    if (typeof leaf === 'string') texts.push(leaf);
    else if (typeof leaf === 'number' && Number.isFinite(leaf)) texts.push(String(leaf));
  }
  return texts;
}

/** Facet values under `path`: strings as they are, numbers as their decimal string, booleans as "true"/"false". */
export function facetValues(record: Record<string, unknown>, path: string[]): string[] {
  const values: string[] = [];
  for (const leaf of leaves(record, path)) {
    if (typeof leaf === 'string') values.push(leaf);
    else if (typeof leaf === 'number' && Number.isFinite(leaf)) values.push(String(leaf));
    else if (typeof leaf === 'boolean') values.push(leaf ? 'true' : 'false');
  }
  return values;
}

/** Numeric values under `path` (numbers, and booleans as 0/1; numeric filters ignore strings, as Algolia does). */
export function numericValues(record: Record<string, unknown>, path: string[]): number[] {
  const values: number[] = [];
  for (const leaf of leaves(record, path)) {
    if (typeof leaf === 'number' && Number.isFinite(leaf)) values.push(leaf);
    else if (typeof leaf === 'boolean') values.push(leaf ? 1 : 0);
  }
  return values;
}

/** Every top-level attribute name with searchable content, used when `searchableAttributes` is not set. */
export function topLevelAttributes(record: Record<string, unknown>): string[] {
  return Object.keys(record).filter((key) => key !== 'objectID' && !key.startsWith('_'));
}
