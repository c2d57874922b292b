import { useEffect, useState } from 'react';
import type { Product } from '@vitrine/protocol';
import { takeInitialData, useServices } from '../../lib/services.ts';
import { useFormat } from '../../lib/format.ts';
import { productPath } from '../../lib/catalog.ts';
import { handleLinkClick } from '../../lib/navigation.ts';
import type { SearchClient } from '../../lib/search-client.ts';

export type Variant = Pick<Product, 'objectID' | 'slug' | 'name' | 'color' | 'image' | 'price'>;

/** A filter on one group; quotes and backslashes in the id are escaped so it stays one value. */
export function groupFilter(groupID: string): string {
  return `groupID:"${groupID.replace(/[\\"]/g, (character) => `\\${character}`)}"`;
}

/** The record's `groupID` when it has one: the group its variants share. */
export function variantGroup(product: { groupID?: unknown }): string | undefined {
  return typeof product.groupID === 'string' && product.groupID !== '' ? product.groupID : undefined;
}

/** Every record of the group (the server renderer asks it too, so a product page arrives with its variants). */
export async function fetchVariants(searchClient: SearchClient, indexName: string, groupID: string): Promise<Variant[]> {
  const { results } = await searchClient.search({
    requests: [{
      indexName,
      query: '',
      filters: groupFilter(groupID),
      distinct: false,
      hitsPerPage: 50,
      attributesToRetrieve: ['objectID', 'slug', 'name', 'color', 'image', 'price'],
      attributesToHighlight: [],
      analytics: false,
    }],
  });
  const first = results[0];
  return first && 'hits' in first ? (first.hits as unknown as Variant[]) : [];
}

/**
 * The other variants of the product (colours, sizes of one model): records sharing its `groupID`, listed with a
 * filter on it (`filterOnly(groupID)` in the index settings) and `distinct: false` so every variant comes back.
 * Hidden when the record has no `groupID` or is alone in its group, and when the listing fails.
 */
export function VariantPicker({ product }: { product: Product & { groupID?: unknown } }) {
  const services = useServices();
  const { searchClient, config } = services;
  const format = useFormat();
  const groupID = variantGroup(product);
  // A server-rendered product page comes with its variants: shown at once, nothing below them moves.
  const [initial] = useState(() => {
    const rendered = takeInitialData(services, 'variants');
    return rendered && rendered.groupID === groupID ? rendered.hits : undefined;
  });
  const [variants, setVariants] = useState<Variant[]>(initial ?? []);
  useEffect(() => {
    if (!groupID || initial) return;
    let current = true;
    fetchVariants(searchClient, config.indexName, groupID)
      .then((hits) => {
        if (current) setVariants(hits);
      })
      .catch(() => {
        // Without the list the product page still sells this variant.
      });
    return () => {
      current = false;
    };
  }, [groupID, searchClient, config.indexName, initial]);

  if (!groupID || variants.length < 2) return null;
  // Colours tell variants apart when they differ; otherwise their names do.
  const byColor = new Set(variants.map((variant) => variant.color)).size === variants.length;
  return (
    <nav className="vt-variants" aria-labelledby="vt-variants-title">
      <h2 id="vt-variants-title" className="vt-variants-title">
        {byColor ? 'Colour' : 'Options'}
      </h2>
      <ul>
        {variants.map((variant) => {
          const href = productPath(variant);
          const current = variant.objectID === product.objectID;
          return (
            <li key={variant.objectID}>
              <a
                href={href}
                className={current ? 'vt-variant vt-variant--current' : 'vt-variant'}
                aria-current={current ? 'page' : undefined}
                onClick={(event) => handleLinkClick(event, href)}
              >
                <img src={variant.image} alt="" width={40} height={40} />
                <span>{byColor ? variant.color : variant.name}</span>
                <span className="vt-variant-price">{format.price(variant.price)}</span>
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
