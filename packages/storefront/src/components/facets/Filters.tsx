import { createContext, useContext } from 'react';
import { ClearRefinements, DynamicWidgets, HierarchicalMenu, RefinementList, ToggleRefinement } from 'react-instantsearch';
import { categoryAttributes } from '../../lib/catalog.ts';
import { Panel } from './Panel.tsx';
import { PriceRange } from './PriceRange.tsx';
import { Ratings } from './Ratings.tsx';
import { hasNoResults, useSearchValue } from '../search/use-search-value.ts';

/** The filters in the shop's own order, shown when the results carry no `renderingContent.facetOrdering`. */
export const defaultFacetOrder = [categoryAttributes[0], 'brand', 'color', 'price', 'rating', 'free_shipping'];

// Module scope: a new function on every render would make DynamicWidgets a new widget each time (a search loop).
function orderOrDefault(attributes: string[]): string[] {
  return attributes.length > 0 ? attributes : defaultFacetOrder;
}

/**
 * True while the server collects a page's queries (`ssr/entry-server.tsx`): every filter is then mounted at
 * once, without DynamicWidgets, so react-instantsearch's `getServerState` needs one render and one search
 * instead of two (DynamicWidgets is a two-pass widget). The page itself is rendered with DynamicWidgets, from
 * results that hold every facet, so it shows what the browser shows.
 */
export const CollectAllFacetsContext = createContext(false);

/**
 * Every filter of the search page, stock widgets with their default texts, ordered (and chosen) by the
 * results' `renderingContent.facetOrdering` when a rule or the index settings give one, else in the shop's own
 * order. `facets={[]}`: each widget asks for its own facet, as without DynamicWidgets, instead of `*`.
 * With no results every facet is empty, so the panels hide (their widgets stay mounted, keeping their
 * refinements); the no-results page and the chips above the results show what is active.
 */
export function Filters() {
  // Rendered again only when that changes: every panel and widget here would render on each search.
  const empty = useSearchValue(hasNoResults);
  const collectAll = useContext(CollectAllFacetsContext);
  const panels = [
    <Panel key="category" title="Category" hidden={empty}>
      <HierarchicalMenu attributes={[...categoryAttributes]} showMore limit={10} showMoreLimit={20} />
    </Panel>,
    <Panel key="brand" title="Brand" hidden={empty}>
      <RefinementList attribute="brand" searchable searchablePlaceholder="Search brands" showMore limit={10} showMoreLimit={20} />
    </Panel>,
    <Panel key="color" title="Color" hidden={empty}>
      <RefinementList attribute="color" showMore limit={10} showMoreLimit={20} />
    </Panel>,
    <Panel key="price" title="Price" hidden={empty}>
      <PriceRange attribute="price" />
    </Panel>,
    <Panel key="rating" title="Rating" hidden={empty}>
      <Ratings attribute="rating" />
    </Panel>,
    <Panel key="shipping" title="Shipping" hidden={empty}>
      <ToggleRefinement attribute="free_shipping" label="Free shipping" />
    </Panel>,
  ];
  return (
    <>
      <ClearRefinements />
      {collectAll ? (
        panels
      ) : (
        <DynamicWidgets facets={[]} transformItems={orderOrDefault}>
          {panels}
        </DynamicWidgets>
      )}
    </>
  );
}
