/**
 * What a server-rendered page tells search engines and link previews: title, description, canonical URL,
 * robots directive, Open Graph tags and JSON-LD (schema.org `Product`, `BreadcrumbList`). Pure functions of
 * the page's data; `head.tsx` writes them as HTML.
 *
 * Indexing policy: the home page, each category page (and its further pages) and each product page are
 * indexable. A search (`q`), a refinement (brand, colour, price, rating, shipping), a sort, a page size or the
 * list view makes a page `noindex, follow` with the canonical URL of its category (or the home page): those
 * combinations are endless and repeat the category's products.
 */
import type { Product } from '@vitrine/protocol';
import { categorySeparator, categoryToSlugs, productPath } from '../lib/catalog.ts';
import type { CategoryNode } from '../lib/catalog.ts';
import { pageTitles, productTitle, shopName } from '../lib/page-titles.ts';
import { routeTitle } from '../routing.ts';
import type { RouteState } from '../routing.ts';

export interface PageMeta {
  title: string;
  description: string;
  /** Absolute URL; absent on a 404. */
  canonical?: string;
  /** `noindex, follow` for pages that must stay out of the index; absent for indexable pages. */
  robots?: string;
  openGraph?: { type: 'website' | 'product'; url: string; image?: string };
  jsonLd: object[];
}

export interface ShopFormat {
  currency: string;
  locale: string;
}

const defaultDescription = 'Search the catalogue: products by category, brand, colour, price and rating.';

function categoryUrl(origin: string, categories: CategoryNode[], names: string[]): string {
  if (names.length === 0) return `${origin}/`;
  return `${origin}/c/${categoryToSlugs(categories, names).map(encodeURIComponent).join('/')}`;
}

/** schema.org BreadcrumbList: Home, then each category level (and the product, when there is one). */
function breadcrumbs(origin: string, categories: CategoryNode[], names: string[], last?: { name: string; url: string }): object {
  const items = [{ name: 'Home', url: `${origin}/` }];
  names.forEach((name, index) => items.push({ name, url: categoryUrl(origin, categories, names.slice(0, index + 1)) }));
  if (last) items.push(last);
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, index) => ({ '@type': 'ListItem', position: index + 1, name: item.name, item: item.url })),
  };
}

/** Whether the route holds more than a category and a page number. */
export function isRefined(route: RouteState): boolean {
  const { category: _category, page: _page, ...rest } = route;
  return Object.keys(rest).length > 0;
}

export function searchPageMeta(options: {
  origin: string;
  route: RouteState;
  categories: CategoryNode[];
  nbHits: number;
  format: ShopFormat;
}): PageMeta {
  const { origin, route, categories, nbHits } = options;
  const names = route.category ?? [];
  const base = categoryUrl(origin, categories, names);
  const refined = isRefined(route);
  const canonical = !refined && route.page ? `${base}?page=${route.page}` : base;
  const count = new Intl.NumberFormat(options.format.locale).format(nbHits);
  const category = names[names.length - 1];
  const description = category
    ? `${count} products in ${names.join(' › ')} at ${shopName}: compare brands, colours, prices and ratings.`
    : defaultDescription;
  return {
    title: routeTitle(route, shopName),
    description,
    canonical,
    ...(refined ? { robots: 'noindex, follow' } : {}),
    openGraph: { type: 'website', url: canonical },
    jsonLd: names.length ? [breadcrumbs(origin, categories, names)] : [],
  };
}

/** The deepest category path of a product, as names ("Home & Kitchen", "Lighting"). */
export function productCategoryNames(product: Pick<Product, 'hierarchicalCategories'>): string[] {
  const levels = product.hierarchicalCategories;
  const deepest = [levels?.lvl2, levels?.lvl1, levels?.lvl0].find(Boolean);
  return deepest ? deepest.split(categorySeparator) : [];
}

function absolute(origin: string, url: string): string {
  try {
    return new URL(url, `${origin}/`).href;
  } catch {
    return `${origin}/`;
  }
}

function shorten(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

export function productPageMeta(options: { origin: string; product: Product; categories: CategoryNode[]; format: ShopFormat }): PageMeta {
  const { origin, product, categories, format } = options;
  const url = `${origin}${productPath(product)}`;
  const image = product.image ? absolute(origin, product.image) : undefined;
  const stock = (product as { stock?: unknown }).stock;
  const available = typeof stock !== 'number' || stock > 0;
  const jsonProduct: Record<string, unknown> = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    sku: product.objectID,
    url,
    ...(image ? { image: [image] } : {}),
    ...(product.description ? { description: shorten(product.description, 500) } : {}),
    ...(product.brand ? { brand: { '@type': 'Brand', name: product.brand } } : {}),
    offers: {
      '@type': 'Offer',
      url,
      price: product.price.toFixed(2),
      priceCurrency: format.currency,
      availability: available ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
    },
  };
  // schema.org asks for at least one review behind an aggregate rating: a product without reviews has none.
  if (product.reviewCount > 0 && product.rating > 0) {
    jsonProduct.aggregateRating = { '@type': 'AggregateRating', ratingValue: product.rating, reviewCount: product.reviewCount, bestRating: 5, worstRating: 1 };
  }
  return {
    title: productTitle(product),
    description: shorten(product.description || `${product.brand} ${product.name}`),
    canonical: url,
    openGraph: { type: 'product', url, ...(image ? { image } : {}) },
    jsonLd: [jsonProduct, breadcrumbs(origin, categories, productCategoryNames(product), { name: product.name, url })],
  };
}

export function notFoundMeta(title: string = pageTitles.notFound): PageMeta {
  return { title, description: defaultDescription, robots: 'noindex', jsonLd: [] };
}

/** Pages rendered in the browser alone (cart, checkout, help): a title and a description, kept out of the index. */
export function clientPageMeta(title: string): PageMeta {
  return { title, description: defaultDescription, robots: 'noindex', jsonLd: [] };
}
