/**
 * The product page's recommendations: related products and frequently bought together, from the Recommend API
 * through react-instantsearch's widgets (their default titles, our item component).
 */
import { FrequentlyBoughtTogether, RelatedProducts } from 'react-instantsearch';
import { useServices } from '../../lib/services.ts';
import { recommendLimits } from '../../lib/recommend.ts';
import { RecommendScope } from './RecommendScope.tsx';
import { RecommendedItem } from './RecommendedItem.tsx';
import type { RecommendedProduct } from './RecommendedItem.tsx';

// An empty carousel is left out rather than shown with the widgets' default "No results".
const Nothing = () => <></>;

const RelatedItem = ({ item }: { item: unknown }) => <RecommendedItem item={item as RecommendedProduct} eventName="Related Product Clicked" />;
const BoughtTogetherItem = ({ item }: { item: unknown }) => (
  <RecommendedItem item={item as RecommendedProduct} eventName="Bought Together Clicked" />
);

export function ProductRecommendations({ objectID }: { objectID: string }) {
  const { config } = useServices();
  if (!config.recommend.enabled) return null;
  return (
    <RecommendScope>
      <div className="vt-recommendations">
        <FrequentlyBoughtTogether
          objectIDs={[objectID]}
          limit={recommendLimits.boughtTogether}
          itemComponent={BoughtTogetherItem}
          emptyComponent={Nothing}
        />
        <RelatedProducts objectIDs={[objectID]} limit={recommendLimits.related} itemComponent={RelatedItem} emptyComponent={Nothing} />
      </div>
    </RecommendScope>
  );
}
