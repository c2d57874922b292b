import { ClearRefinements, HierarchicalMenu, RefinementList, ToggleRefinement, useInstantSearch } from 'react-instantsearch';
import { categoryAttributes } from '../../lib/catalog.ts';
import { Panel } from './Panel.tsx';
import { PriceRange } from './PriceRange.tsx';
import { Ratings } from './Ratings.tsx';

/**
 * Every filter of the search page, stock widgets with their default texts. With no results every facet is
 * empty, so the panels hide (their widgets stay mounted, keeping their refinements); the no-results page and
 * the chips above the results show what is active.
 */
export function Filters() {
  const { results } = useInstantSearch({ catchError: true });
  const empty = !results.__isArtificial && results.nbHits === 0;
  return (
    <>
      <ClearRefinements />
      <Panel title="Category" hidden={empty}>
        <HierarchicalMenu attributes={[...categoryAttributes]} showMore limit={10} showMoreLimit={20} />
      </Panel>
      <Panel title="Brand" hidden={empty}>
        <RefinementList attribute="brand" searchable searchablePlaceholder="Search brands" showMore limit={10} showMoreLimit={20} />
      </Panel>
      <Panel title="Color" hidden={empty}>
        <RefinementList attribute="color" showMore limit={10} showMoreLimit={20} />
      </Panel>
      <Panel title="Price" hidden={empty}>
        <PriceRange />
      </Panel>
      <Panel title="Rating" hidden={empty}>
        <Ratings />
      </Panel>
      <Panel title="Shipping" hidden={empty}>
        <ToggleRefinement attribute="free_shipping" label="Free shipping" />
      </Panel>
    </>
  );
}
