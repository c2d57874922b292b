/**
 * What a search thread searches once loaded, before it says ready: the structures engines build on first use and
 * snapshots do not hold (facet counts, numeric filter columns, an order a replayed log left to merge).
 */
import type { IndexSettings, SearchParams } from '@vitrine/protocol';
import type { IndexRegistry } from '../storage/registry.ts';

/**
 * Searches before saying ready, for what the engines build on first use and snapshots do not hold: a numeric
 * attribute's column (the first `price>=1` filter took 2.1 s at a million products), facet counts, an order the
 * replayed log left to merge, and what a shopper's first query meets (words of a sample record, as typed: the
 * adjacent-pairs filter extended by the replayed records, the dictionary's sorted view, each facet's value
 * lists). Without them the first shopper's search paid for them (2–4.6 s after a restart; then, after the
 * columns, 130–420 ms against 10–25 ms for the next ones at a million products).
 */
export function warmUp(loaded: IndexRegistry): void {
  for (const entry of loaded.all()) {
    const engine = loaded.engineOf(entry);
    const settings = loaded.searchSettingsOf(entry);
    // Ranked, to extend the customRanking order by the replayed records. Without facets: counting every value of
    // a million records (0.5 s) is what any such search costs, not something built once; the sample's text
    // search below asks for facets on a few matches, which builds what counting needs.
    const searches: SearchParams[] = [{ query: '', hitsPerPage: 1 }];
    // Numeric columns belong to the engine: once per index owning one.
    if (entry.engine) {
      const sample = entry.engine.records().next().value as Record<string, unknown> | undefined;
      for (const attribute of numericCandidates(entry.settings, sample)) searches.push({ query: '', hitsPerPage: 0, numericFilters: [`${attribute}>=0`] });
      if (sample !== undefined) searches.push(...sampleSearches(entry.settings, sample));
    }
    for (const params of searches) {
      try {
        engine.search(params, settings);
      } catch {
        // Not a numeric attribute, or nothing this search can prepare: its real searches answer as they can.
      }
    }
  }
}

/**
 * Attributes whose numeric filter column is worth building before the first search: those declared for faceting
 * or numeric filtering whose value in a sample record is a number. Not a customRanking attribute for itself
 * (its order is another structure, built by the first search's ranking), nor a boolean or string one: at a
 * million products the columns of `popularity` and `free_shipping` cost 4.4 and 4.8 s of the thread's start
 * for filters no storefront sends.
 */
export function numericCandidates(settings: IndexSettings, sample: Record<string, unknown> | undefined): string[] {
  const names = new Set<string>();
  const declared = [...((settings.attributesForFaceting as string[] | undefined) ?? []), ...((settings.numericAttributesForFiltering as string[] | undefined) ?? [])];
  for (const raw of declared) names.add(raw.replace(/^(?:searchable|filterOnly|afterDistinct|equalOnly)\((.*)\)$/, '$1'));
  return [...names].filter((name) => sample === undefined || isNumeric(valueAt(sample, name)));
}

/**
 * A shopper's first searches, made of a sample record: two words of its first searchable text, the second one
 * half typed, with facets asked; then a refinement of each faceted attribute on the sample's value.
 */
export function sampleSearches(settings: IndexSettings, sample: Record<string, unknown>): SearchParams[] {
  const searches: SearchParams[] = [];
  const searchable = ((settings.searchableAttributes as string[] | undefined) ?? Object.keys(sample)).flatMap((raw) => raw.split(',').map((name) => name.trim().replace(/^unordered\((.*)\)$/, '$1')));
  const text = searchable.map((name) => valueAt(sample, name)).find((value): value is string => typeof value === 'string' && /\p{L}/u.test(value));
  const words = text?.split(/\s+/).filter((word) => word !== '') ?? [];
  if (words.length > 0) {
    const typed = words.length > 1 ? `${words[0]} ${words[1].slice(0, Math.max(1, Math.ceil(words[1].length / 2)))}` : words[0];
    searches.push({ query: typed, hitsPerPage: 20, facets: ['*'] });
  }
  for (const raw of (settings.attributesForFaceting as string[] | undefined) ?? []) {
    const name = raw.replace(/^(?:searchable|filterOnly|afterDistinct)\((.*)\)$/, '$1');
    const value = valueAt(sample, name);
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string' || typeof first === 'boolean') searches.push({ query: '', hitsPerPage: 0, facetFilters: [[`${name}:${String(first)}`]] });
  }
  return searches;
}

function valueAt(record: Record<string, unknown>, path: string): unknown {
  let value: unknown = record;
  for (const key of path.split('.')) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

function isNumeric(value: unknown): boolean {
  return typeof value === 'number' || (Array.isArray(value) && value.some((item) => typeof item === 'number'));
}

