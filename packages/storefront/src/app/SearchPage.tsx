/**
 * The search page: one `<InstantSearch>` with URL routing, insights, and the stock widgets (default texts and
 * `ais-*` classes kept) around a few headless ones of our own.
 */
import { useContext, useEffect, useMemo, useState } from 'react';
import {
  Breadcrumb,
  HitsPerPage,
  InstantSearch,
  InstantSearchSSRProvider,
  SortBy,
  Stats,
  useInstantSearchContext,
} from 'react-instantsearch';
import { Header } from '../components/layout/Header.tsx';
import { ActiveFilters } from '../components/facets/ActiveFilters.tsx';
import { FiltersDrawer, FiltersDrawerScope, FiltersOpener } from '../components/facets/FiltersDrawer.tsx';
import { Filters } from '../components/facets/Filters.tsx';
import { HomeTrending } from '../components/recommend/HomeTrending.tsx';
import { HomeSections } from '../components/home/HomeSections.tsx';
import { SearchCombobox } from '../components/search/SearchCombobox.tsx';
import { ShopSearchBox } from '../components/search/ShopSearchBox.tsx';
import { NoResults, NoResultsBoundary } from '../components/search/NoResults.tsx';
import { Results, StaleWhileFailing } from '../components/search/Results.tsx';
import { SearchConfiguration } from '../components/search/SearchConfiguration.tsx';
import { RuleBanners } from '../components/search/RuleBanners.tsx';
import { CategorySuggestions } from '../components/search/CategorySuggestions.tsx';
import { RuleRedirect } from '../components/search/RuleRedirect.tsx';
import { ScrollRestoration } from '../components/search/ScrollRestoration.tsx';
import { SearchStatus } from '../components/search/SearchStatus.tsx';
import { useStatsTexts } from '../components/search/stats-texts.ts';
import { categoryAttributes } from '../lib/catalog.ts';
import { sortOptions } from '../lib/config.ts';
import { DropdownSearch } from '../lib/dropdown-search.ts';
import { onBeforeNavigate, ServerUrlContext } from '../lib/navigation.ts';
import { createRouting } from '../routing.ts';
import type { RoutingContext } from '../routing.ts';
import { takeInitialData, useServices } from '../lib/services.ts';

export const hitsPerPageOptions = [20, 40, 60];
const searchPlaceholder = 'Search products, brands, categories…';

/**
 * `?dropdown=off` shows the search box without its dropdown: the keystroke benchmark's baseline (`npm run
 * bench:keystroke`). Read once, when the page is made; the shop's own links never carry it.
 */
function dropdownWanted(url: URL | null): boolean {
  const search = url ? url.search : typeof window === 'undefined' ? '' : window.location.search;
  return new URLSearchParams(search).get('dropdown') !== 'off';
}

function SearchHeader({ dropdown }: { dropdown: DropdownSearch | undefined }) {
  // The instance, not `useInstantSearch()`: that renders the header (and the search box) again on every render
  // of every search, for a logo that only ever resets the state.
  const search = useInstantSearchContext();
  useEffect(() => {
    // The stock search box doesn't overwrite what is typed while it has focus; after back/forward the query
    // comes from the URL, so let go of the focus and the box shows the restored query.
    const release = () => {
      const active = document.activeElement;
      if (active instanceof HTMLElement && active.classList.contains('ais-SearchBox-input')) active.blur();
    };
    window.addEventListener('popstate', release);
    return () => window.removeEventListener('popstate', release);
  }, []);
  return (
    <Header onHome={() => search.mainIndex.setIndexUiState({})}>
      {dropdown ? (
        <SearchCombobox placeholder={searchPlaceholder} dropdown={dropdown} />
      ) : (
        <ShopSearchBox placeholder={searchPlaceholder} />
      )}
    </Header>
  );
}

export function SearchPage() {
  const services = useServices();
  const { config, searchClient, insights, categories } = services;
  const serverUrl = useContext(ServerUrlContext);
  // The results the server rendered this page with, once: the first render shows them (no search on hydration).
  const [serverState] = useState(() => takeInitialData(services, 'search'));
  const [dropdown] = useState(() =>
    dropdownWanted(serverUrl)
      ? new DropdownSearch(searchClient, {
          indexName: config.indexName,
          suggestionsIndex: config.querySuggestions.enabled ? config.querySuggestions.indexName : undefined,
        })
      : undefined,
  );
  // Hydrating from server results replaces the client's `search` with one that only takes InstantSearch's call
  // shape: give InstantSearch a copy of its own, so the featured products, variants and the dropdown's first
  // search (which call `search({ requests })` on the shared client) keep working. With the dropdown, that copy
  // also carries the dropdown's queries in InstantSearch's requests.
  const [instantSearchClient] = useState(() => (dropdown ? dropdown.wrap(searchClient) : serverState ? { ...searchClient } : searchClient));
  const statsTexts = useStatsTexts();
  const sorts = useMemo(() => sortOptions(config), [config]);
  const { routing, flush, setAttached } = useMemo(() => {
    const context: RoutingContext = { indexName: config.indexName, sortOptions: sorts, categories, hitsPerPageOptions };
    return createRouting(context, serverUrl);
  }, [config.indexName, sorts, categories, serverUrl]);
  useEffect(() => onBeforeNavigate(flush), [flush]);
  useEffect(() => {
    setAttached(true);
    return () => setAttached(false);
  }, [setAttached]);

  return (
    <InstantSearchSSRProvider {...(serverState ?? {})}>
    <InstantSearch
      searchClient={instantSearchClient}
      indexName={config.indexName}
      routing={routing}
      insights={insights ? insights.middleware : false}
      stalledSearchDelay={200}
      future={{ preserveSharedStateOnUnmount: true }}
    >
      <SearchConfiguration />
      <RuleRedirect />
      <SearchHeader dropdown={dropdown} />
      <ScrollRestoration />
      <FiltersDrawerScope>
      <div className="vt-layout">
        <FiltersDrawer>
          <Filters />
        </FiltersDrawer>
        <main id="main" className="vt-results" tabIndex={-1}>
          {/* The home page starts with what a shop's home shows; the search controls come with the results. */}
          <HomeSections />
          <Breadcrumb attributes={[...categoryAttributes]} />
          <div className="vt-toolbar">
            {/* Stats carries its own polite live region (ais-Stats-announcement), debounced while typing. */}
            <Stats className="vt-stats" translations={statsTexts} />
            <FiltersOpener />
            <div className="vt-sort-controls">
              <SortBy items={sorts.map(({ label, value }) => ({ label, value }))} aria-label="Sort by" />
              {/* The stock select has no name of its own; the label around it gives it one. */}
              <label className="vt-hits-per-page">
                <span className="vt-sr-only">Results per page</span>
                <HitsPerPage
                  items={hitsPerPageOptions.map((value, index) => ({ label: `${value} per page`, value, default: index === 0 }))}
                />
              </label>
            </div>
          </div>
          <ActiveFilters />
          <SearchStatus />
          <RuleBanners />
          <CategorySuggestions />
          <StaleWhileFailing>
            <NoResultsBoundary fallback={<NoResults />}>
              <Results />
            </NoResultsBoundary>
          </StaleWhileFailing>
          <HomeTrending />
        </main>
      </div>
      </FiltersDrawerScope>
    </InstantSearch>
    </InstantSearchSSRProvider>
  );
}
