/**
 * What a search thread searches once loaded, before it says ready: the structures engines build on first use and
 * snapshots do not hold (facet counts, numeric filter columns, an order a replayed log left to merge).
 */
import { leaves, parseAttributesForFaceting, parsePath, parseSearchableAttributes, topLevelAttributes } from '@vitrine/engine';
import type { IndexSettings, SearchParams } from '@vitrine/protocol';
import type { IndexRegistry } from '../storage/registry.ts';

/**
 * Searches before saying ready, for what the engines build on first use and snapshots do not hold: a numeric
 * attribute's column (the first `price>=1` filter took 2.1 s at a million products), facet counts, an order the
 * replayed log left to merge, and what a shopper's first query meets (words of a sample record, as typed: the
 * adjacent-pairs filter extended by the replayed records, the dictionary's sorted view, each facet's value
 * lists). Without them the first shopper's search pays for them (seconds after a restart at a million products).
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
  const names = new Set(parseAttributesForFaceting(settings.attributesForFaceting).map((facet) => facet.attribute));
  for (const raw of (settings.numericAttributesForFiltering as string[] | undefined) ?? []) names.add(raw.trim().replace(/^equalOnly\((.*)\)$/, '$1'));
  return [...names].filter((name) => sample === undefined || leaves(sample, parsePath(name)).some((leaf) => typeof leaf === 'number'));
}

/**
 * A shopper's first searches, made of a sample record: two words of its first searchable text, the second one
 * half typed, with facets asked; then a refinement of each faceted attribute on the sample's value.
 */
export function sampleSearches(settings: IndexSettings, sample: Record<string, unknown>): SearchParams[] {
  const searches: SearchParams[] = [];
  const searchable = parseSearchableAttributes(settings.searchableAttributes)?.map((slot) => slot.path) ?? topLevelAttributes(sample).map(parsePath);
  const text = searchable.flatMap((path) => leaves(sample, path)).find((leaf): leaf is string => typeof leaf === 'string' && /\p{L}/u.test(leaf));
  const words = text?.split(/\s+/).filter((word) => word !== '') ?? [];
  if (words.length > 0) {
    const typed = words.length > 1 ? `${words[0]} ${words[1].slice(0, Math.max(1, Math.ceil(words[1].length / 2)))}` : words[0];
    searches.push({ query: typed, hitsPerPage: 20, facets: ['*'] });
  }
  for (const facet of parseAttributesForFaceting(settings.attributesForFaceting)) {
    const first = leaves(sample, facet.path)[0];
    if (typeof first !== 'string' && typeof first !== 'boolean') continue;
    // The first with facets: counting those of a refined set interleaves the single-valued ones' values
    // (`buildFacetRows`), a loop over every document that took 90 ms in the first shopper's search, not yet
    // compiled. Not every one: over half the catalogue (a boolean's), counting all facets costs 0.1-0.3 s.
    const withFacets = searches.every((search) => search.facetFilters === undefined);
    searches.push({ query: '', hitsPerPage: 0, ...(withFacets ? { facets: ['*'] } : {}), facetFilters: [[`${facet.attribute}:${String(first)}`]] });
  }
  return searches;
}
