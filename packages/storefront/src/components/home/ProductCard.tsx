import type { Product } from '@vitrine/protocol';
import { useFormat } from '../../lib/format.ts';
import { productPath } from '../../lib/catalog.ts';
import { handleLinkClick } from '../../lib/navigation.ts';

/** A small product tile: image, name, price, a link to the product page. */
export function ProductCard({ product, onOpen }: { product: Pick<Product, 'objectID' | 'slug' | 'name' | 'image' | 'price'>; onOpen?: () => void }) {
  const format = useFormat();
  const href = productPath(product);
  return (
    <a
      className="vt-rec-item"
      href={href}
      onClick={(event) => {
        onOpen?.();
        handleLinkClick(event, href);
      }}
    >
      <img className="vt-rec-image" src={product.image} alt="" width={140} height={140} loading="lazy" decoding="async" />
      <span className="vt-rec-name">{product.name}</span>
      <span className="vt-price vt-rec-price">{format.price(product.price)}</span>
    </a>
  );
}
