/**
 * Domain helpers over the search payloads: product URLs, the category tree behind readable category paths,
 * and loading one product record.
 */
import type { Product } from '@vitrine/protocol';
import type { SearchClient } from './search-client.ts';

export type { Product };

/** Attributes of the hierarchical category facet, top level first. */
export const categoryAttributes = [
  'hierarchicalCategories.lvl0',
  'hierarchicalCategories.lvl1',
  'hierarchicalCategories.lvl2',
] as const;

export const categorySeparator = ' > ';

/** Lowercase ASCII words joined by '-': "Home & Kitchen" → "home-kitchen". */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** `/p/<slug>-<objectID>`; '-' inside the objectID is escaped so the last '-' always splits the two. */
export function productPath(product: Pick<Product, 'slug' | 'objectID'>): string {
  const slug = slugify(product.slug || '') || 'product';
  return `/p/${slug}-${encodeURIComponent(product.objectID).replace(/-/g, '%2D')}`;
}

/** The objectID in a product path, or undefined when the path is not a product page. */
export function parseProductPath(pathname: string): string | undefined {
  const match = /^\/p\/(?:[^/]*-)?([^/-]+)\/?$/.exec(pathname);
  if (!match) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

export interface CategoryNode {
  /** The segment as stored in the records ("Lighting"). */
  name: string;
  slug: string;
  children: CategoryNode[];
}

/** Facet counts as the search API returns them: attribute → value → count. */
export type FacetCounts = Record<string, Record<string, number>>;

/** Builds the category tree from the hierarchical facet values ("A", "A > B", "A > B > C"). */
export function buildCategoryTree(facets: FacetCounts | undefined): CategoryNode[] {
  const roots: CategoryNode[] = [];
  for (const attribute of categoryAttributes) {
    for (const value of Object.keys(facets?.[attribute] ?? {})) {
      let level = roots;
      for (const name of value.split(categorySeparator)) {
        let node = level.find((candidate) => candidate.name === name);
        if (!node) {
          node = { name, slug: slugify(name), children: [] };
          level.push(node);
        }
        level = node.children;
      }
    }
  }
  return roots;
}

/** Category names ("Home & Kitchen", "Lighting") → URL slugs; names the tree doesn't know are slugified. */
export function categoryToSlugs(tree: CategoryNode[], names: string[]): string[] {
  let level: CategoryNode[] | undefined = tree;
  return names.map((name) => {
    const node: CategoryNode | undefined = level?.find((candidate) => candidate.name === name);
    level = node?.children;
    return node?.slug ?? slugify(name);
  });
}

/** URL slugs → category names, or undefined when a slug matches no category (a stale or mistyped link). */
export function slugsToCategory(tree: CategoryNode[], slugs: string[]): string[] | undefined {
  let level = tree;
  const names: string[] = [];
  for (const slug of slugs) {
    const node = level.find((candidate) => candidate.slug === slug);
    if (!node) return undefined;
    names.push(node.name);
    level = node.children;
  }
  return names;
}

/** One request for the whole category tree, so category URLs can be read before the first search. */
export async function loadCategoryTree(client: SearchClient, indexName: string): Promise<CategoryNode[]> {
  const { results } = await client.search({
    requests: [{ indexName, query: '', hitsPerPage: 0, facets: [...categoryAttributes], maxValuesPerFacet: 1000 }],
  });
  const first = results[0];
  return buildCategoryTree(first && 'facets' in first ? (first.facets as FacetCounts | undefined) : undefined);
}

/** Loads one product by objectID (the getObjects endpoint), or null when the index has no such record. */
export async function getProduct(client: SearchClient, indexName: string, objectID: string): Promise<Product | null> {
  const response = (await client.customPost({
    path: '1/indexes/*/objects',
    body: { requests: [{ indexName, objectID }] },
  })) as { results?: Array<Product | null> };
  return response.results?.[0] ?? null;
}

/** Formats a price in the shop's currency and locale (`useFormat()` keeps the formatter for React code). */
export function formatPrice(value: number, currency: string, locale = 'en-US'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(value);
}
