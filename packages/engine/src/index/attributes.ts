/**
 * Reading attribute values out of records: dotted paths into nested objects (`hierarchicalCategories.lvl0`),
 * arrays flattened element by element, as Algolia treats them for search, facets and filters.
 *
 * A key may itself hold dots: query-suggestion records keep `{"hierarchicalCategories.lvl0": [...]}` under
 * `instant_search.facets.exact_matches`, and the path `instant_search.facets.exact_matches.hierarchicalCategories.lvl0.value`
 * names its values. At each object the walk follows every key that spells the next segments joined with dots,
 * the longest first: a path names every value whose keys, joined with dots, spell it. When a record holds both
 * `{"a.b": 1}` and `{"a": {"b": 2}}`, `a.b` names both values (1, then 2).
 */

/**
 * A path compiled once per attribute: its segments (the array itself), and at each depth the keys that may spell
 * the rest, longest first, with the depth each leads to. Not enumerable: the array compares and prints as its
 * segments.
 */
export type AttributePath = readonly string[] & {
  /** keys[d]: `a.b.c`, `a.b`, `a` for depth 0 of `a.b.c`. */
  readonly keys: ReadonlyArray<readonly string[]>;
  /** depths[d][i]: the depth after `keys[d][i]`. */
  readonly depths: ReadonlyArray<readonly number[]>;
};

/** Compiled paths by attribute: settings name a handful, and every search reads them again. */
const compiled = new Map<string, AttributePath>();
const MAX_COMPILED = 1_000;

/** Splits and compiles `a.b.c` once per attribute, not once per record. */
export function parsePath(attribute: string): AttributePath {
  let path = compiled.get(attribute);
  if (path === undefined) {
    path = compilePath(attribute);
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(attribute, path);
  }
  return path;
}

function compilePath(attribute: string): AttributePath {
  const segments = attribute.split('.');
  const keys: string[][] = [];
  const depths: number[][] = [];
  for (let d = 0; d < segments.length; d++) {
    keys.push([]);
    depths.push([]);
    for (let end = segments.length; end > d; end--) {
      keys[d].push(segments.slice(d, end).join('.'));
      depths[d].push(end);
    }
  }
  Object.defineProperty(segments, 'keys', { value: keys });
  Object.defineProperty(segments, 'depths', { value: depths });
  return segments as unknown as AttributePath;
}

/** Every leaf under `path` (arrays flattened, objects walked in key order), in record order. */
export function leavesAt(record: Record<string, unknown>, path: AttributePath, visit: (leaf: unknown) => void): void {
  for (const leaf of leaves(record, path)) visit(leaf);
}

/** Leaves under `path` into `out` (no callback: the indexing hot path). */
function collectLeaves(value: unknown, path: AttributePath, depth: number, out: unknown[]): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) collectLeaves(value[i], path, depth, out);
    return;
  }
  if (typeof value === 'object') {
    // The last segment (every path of one segment) has a single key: read as before keys could hold dots.
    if (depth === path.length - 1) collectLeaves((value as Record<string, unknown>)[path[depth]], path, depth + 1, out);
    else if (depth < path.length) {
      const keys = path.keys[depth];
      const depths = path.depths[depth];
      for (let i = 0; i < keys.length; i++) collectLeaves((value as Record<string, unknown>)[keys[i]], path, depths[i], out);
    } else for (const key in value as object) collectLeaves((value as Record<string, unknown>)[key], path, depth, out);
    return;
  }
  if (depth === path.length) out.push(value);
}

/** Every leaf under `path`, in record order. */
export function leaves(record: Record<string, unknown>, path: AttributePath): unknown[] {
  const out: unknown[] = [];
  collectLeaves(record, path, 0, out);
  return out;
}

/** Text of the searchable leaves under `path`: strings and numbers (numbers are words too). */
export function searchableTexts(record: Record<string, unknown>, path: AttributePath): string[] {
  const texts: string[] = [];
  for (const leaf of leaves(record, path)) {
    if (typeof leaf === 'string') texts.push(leaf);
    else if (typeof leaf === 'number' && Number.isFinite(leaf)) texts.push(String(leaf));
  }
  return texts;
}

/** Facet values under `path`: strings as they are, numbers as their decimal string, booleans as "true"/"false". */
export function facetValues(record: Record<string, unknown>, path: AttributePath): string[] {
  const values: string[] = [];
  for (const leaf of leaves(record, path)) {
    if (typeof leaf === 'string') values.push(leaf);
    else if (typeof leaf === 'number' && Number.isFinite(leaf)) values.push(String(leaf));
    else if (typeof leaf === 'boolean') values.push(leaf ? 'true' : 'false');
  }
  return values;
}

/** Numeric values under `path` (numbers, and booleans as 0/1; numeric filters ignore strings, as Algolia does). */
export function numericValues(record: Record<string, unknown>, path: AttributePath): number[] {
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

/**
 * The key sequences that spell `path` in `record`'s nested objects, the longest key first at each object:
 * what highlighting and attributesToRetrieve mirror (the value at the end, whatever it is). Arrays are not
 * entered, as before keys could hold dots.
 */
export function keyPathsIn(record: Record<string, unknown>, path: AttributePath): string[][] {
  const found: string[][] = [];
  collectKeyPaths(record, path, 0, [], found);
  return found;
}

function collectKeyPaths(node: Record<string, unknown>, path: AttributePath, depth: number, before: string[], found: string[][]): void {
  const keys = path.keys[depth];
  const depths = path.depths[depth];
  for (let i = 0; i < keys.length; i++) {
    if (!Object.hasOwn(node, keys[i])) continue;
    const sequence = [...before, keys[i]];
    const child = node[keys[i]];
    if (depths[i] === path.length) found.push(sequence);
    else if (child !== null && typeof child === 'object' && !Array.isArray(child)) collectKeyPaths(child as Record<string, unknown>, path, depths[i], sequence, found);
  }
}

/**
 * Own-property assignment, for copies of records: a record key such as `__proto__` must become a plain key,
 * never a prototype. That is the one accessor on Object.prototype; any other key can be assigned plainly
 * (defineProperty is slow).
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
