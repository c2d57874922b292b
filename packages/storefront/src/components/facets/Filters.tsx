import { ClearRefinements, HierarchicalMenu, RangeInput, RefinementList, ToggleRefinement } from 'react-instantsearch';
import { categoryAttributes } from '../../lib/catalog.ts';
import { Panel } from './Panel.tsx';
import { Ratings } from './Ratings.tsx';

/** Every filter of the search page, stock widgets with their default texts. */
export function Filters() {
  return (
    <>
      <ClearRefinements />
      <Panel title="Category">
        <HierarchicalMenu attributes={[...categoryAttributes]} showMore limit={10} showMoreLimit={20} />
      </Panel>
      <Panel title="Brand">
        <RefinementList attribute="brand" searchable searchablePlaceholder="Search brands" showMore limit={10} showMoreLimit={20} />
      </Panel>
      <Panel title="Color">
        <RefinementList attribute="color" showMore limit={10} showMoreLimit={20} />
      </Panel>
      <Panel title="Price">
        <RangeInput attribute="price" precision={0} />
      </Panel>
      <Panel title="Rating">
        <Ratings />
      </Panel>
      <Panel title="Shipping">
        <ToggleRefinement attribute="free_shipping" label="Free shipping" />
      </Panel>
    </>
  );
}
