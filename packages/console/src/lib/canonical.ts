/**
 * Comparing two JSON items the way an operator would: keys in any order, and what states a default (an empty
 * list, object or string, `alternatives: false`, `filterPromotes: false`, `enabled: true`) the same as leaving it out. The rule and synonym forms use it to
 * check that the form would write an item back as it came (else the item stays in its JSON).
 */

/** Fields whose value here is Algolia's default when they are absent. */
const defaults: Record<string, unknown> = { alternatives: false, filterPromotes: false, enabled: true };

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (typeof value !== 'object' || value === null) return value;
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = strip((value as Record<string, unknown>)[key]);
    if (item === undefined || item === '' || defaults[key] === item) continue;
    if (Array.isArray(item) && item.length === 0) continue;
    if (typeof item === 'object' && item !== null && !Array.isArray(item) && Object.keys(item).length === 0) continue;
    kept[key] = item;
  }
  return kept;
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(strip(a)) === JSON.stringify(strip(b));
}

/** An item as the server lists it, without what the server adds (`_highlightResult`, `_metadata`). */
export function withoutServerFields<T extends object>(item: T): T {
  return Object.fromEntries(Object.entries(item).filter(([key]) => !key.startsWith('_'))) as T;
}

/** Splits a comma-separated list typed in a field. */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((word) => word.trim())
    .filter(Boolean);
}
