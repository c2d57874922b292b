/**
 * Products for the search box's dropdown: the first few hits for the typed text, with only what the dropdown
 * shows. Sent with `analytics: false`, like suggestions: typing must not count as searching.
 */
import type { Product } from '@vitrine/protocol';
import type { SearchQuery } from 'algoliasearch/lite';

export type ProductPreview = Pick<Product, 'objectID' | 'slug' | 'name' | 'image' | 'price'>;

/** Products beside the suggestions: enough to recognise one, few enough to keep the dropdown short. */
export const productPreviewCount = 4;

/** The search for previews of `typed`, as one query of a multi-query; none for empty text (no products to guess). */
export function productPreviewsQuery(indexName: string, typed: string): SearchQuery | undefined {
  if (typed.trim() === '') return undefined;
  return {
    indexName,
    query: typed,
    hitsPerPage: productPreviewCount,
    attributesToRetrieve: ['objectID', 'slug', 'name', 'image', 'price'],
    attributesToHighlight: [],
    attributesToSnippet: [],
    analytics: false,
    clickAnalytics: false,
  };
}
