/**
 * One recommended product, for every recommendation widget: image, name, price, a link to the product page.
 * A click sends an insights click (after-search when the recommendation response carried a queryID, a plain
 * click otherwise) and keeps that queryID so an add to cart on the product page is attributed to it.
 */
import type { Product } from '@vitrine/protocol';
import { useFormat, useServices } from '../../app/services.ts';
import { productPath } from '../../lib/catalog.ts';
import { handleLinkClick } from '../../lib/navigation.ts';

/** A recommended record as the widgets hand it over (position and queryID added by InstantSearch). */
export type RecommendedProduct = Product & { objectID: string; __position: number; __queryID?: string };

export function RecommendedItem({ item, eventName }: { item: RecommendedProduct; eventName: string }) {
  const { insights } = useServices();
  const format = useFormat();
  const href = productPath(item);
  return (
    <a
      className="vt-rec-item"
      href={href}
      onClick={(event) => {
        insights?.recommendationClicked({ objectID: item.objectID, position: item.__position, queryID: item.__queryID, eventName });
        insights?.rememberQueryID(item.objectID, item.__queryID);
        handleLinkClick(event, href);
      }}
    >
      <img className="vt-rec-image" src={item.image} alt="" width={140} height={140} loading="lazy" decoding="async" />
      <span className="vt-rec-name">{item.name}</span>
      <span className="vt-price vt-rec-price">{format.price(item.price)}</span>
    </a>
  );
}
