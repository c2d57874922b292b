/**
 * Searches run once the indexes are loaded, before the server says it is ready: what the engines build on first
 * use and snapshots do not hold. A search thread runs them on its copy; without one, the Store runs them on the
 * main thread's before `loaded` turns true (`Store.setWarmUp`).
 */
import type { IndexSettings, SearchParams } from '@vitrine/protocol';
import type { IndexRegistry } from '../storage/registry.ts';

/**
 * Searches before saying ready, for what the engines build on first use and snapshots do not hold: a numeric
 * attribute's column (the first `price>=1` filter took 2.1 s at a million products), facet counts, an order the
 * replayed log left to merge. Without it the first shopper's search paid for them (2–4.6 s after a restart).
 */
export function warmUp(loaded: IndexRegistry): void {
  for (const entry of loaded.all()) {
    const engine = loaded.engineOf(entry);
    const settings = loaded.searchSettingsOf(entry);
    const searches: SearchParams[] = [{ query: '', hitsPerPage: 1, facets: ['*'] }];
    // Numeric columns belong to the engine: once per index owning one.
    if (entry.engine) for (const attribute of numericCandidates(entry.settings)) searches.push({ query: '', hitsPerPage: 0, numericFilters: [`${attribute}>=0`] });
    for (const params of searches) {
      try {
        engine.search(params, settings);
      } catch {
        // Not a numeric attribute, or nothing this search can prepare: its real searches answer as they can.
      }
    }
  }
}

/** Attributes a numeric filter may name: those for faceting or numeric filtering, and the customRanking ones. */
function numericCandidates(settings: IndexSettings): string[] {
  const names = new Set<string>();
  const declared = [...((settings.attributesForFaceting as string[] | undefined) ?? []), ...((settings.numericAttributesForFiltering as string[] | undefined) ?? [])];
  for (const raw of declared) names.add(raw.replace(/^(?:searchable|filterOnly|afterDistinct|equalOnly)\((.*)\)$/, '$1'));
  for (const criterion of (settings.customRanking as string[] | undefined) ?? []) names.add(criterion.replace(/^(?:asc|desc)\((.*)\)$/, '$1'));
  return [...names];
}

