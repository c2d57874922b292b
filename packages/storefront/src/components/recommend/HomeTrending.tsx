/**
 * Trending items on the home page (the search page before any query or filter). The search page's state says
 * when; the widget lives in a `RecommendScope` of its own, so it never mixes with the search's status.
 */
import { useSyncExternalStore } from 'react';
import { TrendingItems } from 'react-instantsearch';
import { useServices } from '../../lib/services.ts';
import { isHomeState, recommendLimits } from '../../lib/recommend.ts';
import { RecommendScope } from './RecommendScope.tsx';
import { RecommendedItem } from './RecommendedItem.tsx';
import { indexUiStateOf, useSearchValue } from '../search/use-search-value.ts';
import type { RecommendedProduct } from './RecommendedItem.tsx';

const Nothing = () => <></>;
const TrendingItem = ({ item }: { item: unknown }) => <RecommendedItem item={item as RecommendedProduct} eventName="Trending Item Clicked" />;

const noSubscription = () => () => {};

/** False on the server and while a server-rendered page hydrates, true after. */
function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}

export function HomeTrending() {
  const { config } = useServices();
  const home = useSearchValue((search) => isHomeState(indexUiStateOf(search), config.indexName));
  // A second InstantSearch inside the search page's cannot be server-rendered (react-instantsearch's
  // getServerState takes one): the carousel comes after hydration, after the results (below the fold).
  const hydrated = useHydrated();
  if (!hydrated || !config.recommend.enabled || !home) return null;
  return (
    <RecommendScope>
      <TrendingItems classNames={{ root: 'vt-recommendations' }} limit={recommendLimits.trending} itemComponent={TrendingItem} emptyComponent={Nothing} />
    </RecommendScope>
  );
}
