/**
 * One recommended product, for every recommendation widget: image, name, price, a link to the product page.
 * A click sends an insights click (after-search when the recommendation response carried a queryID, a plain
 * click otherwise) and keeps that queryID so an add to cart on the product page is attributed to it.
 */
import type { Product } from '@vitrine/protocol';
import { useServices } from '../../lib/services.ts';
import { ProductCard } from '../home/ProductCard.tsx';

/** A recommended record as the widgets hand it over (position and queryID added by InstantSearch). */
export type RecommendedProduct = Product & { objectID: string; __position: number; __queryID?: string };

export function RecommendedItem({ item, eventName }: { item: RecommendedProduct; eventName: string }) {
  const { insights } = useServices();
  return (
    <ProductCard
      product={item}
      onOpen={() => {
        insights?.recommendationClicked({ objectID: item.objectID, position: item.__position, queryID: item.__queryID, eventName });
        insights?.rememberQueryID(item.objectID, item.__queryID);
      }}
    />
  );
}
