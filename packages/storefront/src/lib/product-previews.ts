/**
 * Products for the search box's dropdown: the first few hits for the typed text, with only what the dropdown
 * shows. Sent with `analytics: false`, like suggestions: typing must not count as searching.
 */
import type { Product } from '@vitrine/protocol';
import type { SearchClient } from './search-client.ts';

export type ProductPreview = Pick<Product, 'objectID' | 'slug' | 'name' | 'image' | 'price'>;

/** Products beside the suggestions: enough to recognise one, few enough to keep the dropdown short. */
export const productPreviewCount = 4;

export async function fetchProductPreviews(client: SearchClient, indexName: string, typed: string): Promise<ProductPreview[]> {
  if (typed.trim() === '') return [];
  const { results } = await client.search({
    requests: [{
      indexName,
      query: typed,
      hitsPerPage: productPreviewCount,
      attributesToRetrieve: ['objectID', 'slug', 'name', 'image', 'price'],
      attributesToHighlight: [],
      attributesToSnippet: [],
      analytics: false,
      clickAnalytics: false,
    }],
  });
  const first = results[0];
  return first && 'hits' in first ? (first.hits as unknown as ProductPreview[]) : [];
}
