/**
 * Server-rendered pages as a crawler or `curl` sees them, over a real socket (no browser): the HTML holds the
 * products' names, prices and facet counts; unknown addresses answer 404; JSON-LD parses and carries the
 * fields search engines read; refinements are `noindex` with the category as canonical; a record's
 * `</script>` stays inert; sitemap and robots.txt.
 */
import { describe, expect, it } from 'vitest';
import type { Product } from '@vitrine/protocol';
import { productPath, slugify } from '../src/lib/catalog.ts';
import { pageStateElementId } from '../src/lib/page-state.ts';
import { useShop } from './harness.ts';

const hostile: Product = {
  objectID: 'hostile-ssr',
  name: 'Sneaky </script><script>window.__pwned = 1</script> Lamp',
  description: '<!-- comment --> "quoted" & </script>',
  brand: 'Evil & Co',
  categories: ['Lighting'],
  hierarchicalCategories: { lvl0: 'Hostile Goods', lvl1: 'Hostile Goods > Lamps', lvl2: 'Hostile Goods > Lamps > Desk' },
  price: 12.5,
  rating: 3,
  reviewCount: 2,
  color: 'Red',
  free_shipping: false,
  popularity: 1,
  image: '/images/products/desk-lamps-red.svg',
  slug: 'sneaky-lamp',
};

async function get(baseURL: string, path: string, headers: Record<string, string> = { accept: 'text/html' }) {
  const response = await fetch(`${baseURL}${path}`, { headers });
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

function jsonLd(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((match) => JSON.parse(match[1]) as Record<string, unknown>);
}

function headTag(html: string, pattern: RegExp): string | undefined {
  return pattern.exec(html)?.[1];
}

describe('server-rendered pages over HTTP', () => {
  const shop = useShop({ extraRecords: [hostile] });

  it('renders a category page with its products, prices and facet counts in the HTML', async () => {
    const { baseURL, products } = shop.harness;
    const lvl0 = products[0].hierarchicalCategories.lvl0;
    const inCategory = products.filter((product) => product.hierarchicalCategories.lvl0 === lvl0);
    const { status, text } = await get(baseURL, `/c/${slugify(lvl0)}`);
    expect(status).toBe(200);
    const names = [...text.matchAll(/class="vt-hit-name">([\s\S]*?)<\/h2>/g)].map((match) => match[1].replace(/<[^>]+>/g, ''));
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(inCategory.map((product) => product.name)).toContain(name.replace(/&amp;/g, '&'));
    const firstHit = inCategory.find((product) => product.name === names[0].replace(/&amp;/g, '&'))!;
    expect(text).toContain(`$${firstHit.price.toFixed(2)}`);
    // The brand facet's counts, as the search API counts them within the category.
    const brandCounts = new Map<string, number>();
    for (const product of inCategory) brandCounts.set(product.brand, (brandCounts.get(product.brand) ?? 0) + 1);
    const [topBrand, topCount] = [...brandCounts].sort((a, b) => b[1] - a[1])[0];
    expect(text).toMatch(new RegExp(`class="ais-RefinementList-labelText">${topBrand.replace(/&/g, '&amp;')}</span><span class="ais-RefinementList-count">${topCount}<`));
    expect(headTag(text, /<title>([^<]*)<\/title>/)).toBe(`${lvl0.replace(/&/g, '&amp;')} – Vitrine`);
    expect(headTag(text, /<link rel="canonical" href="([^"]*)"/)).toBe(`${baseURL}/c/${slugify(lvl0)}`);
    expect(text).not.toMatch(/<meta name="robots"/);
    const breadcrumb = jsonLd(text).find((data) => data['@type'] === 'BreadcrumbList') as { itemListElement: Array<{ name: string; item: string }> };
    expect(breadcrumb.itemListElement.map((item) => item.name)).toEqual(['Home', lvl0]);
  });

  it('marks refinements noindex with the category as canonical', async () => {
    const { baseURL, products } = shop.harness;
    const lvl0 = products[0].hierarchicalCategories.lvl0;
    const { status, text } = await get(baseURL, `/c/${slugify(lvl0)}?brand=${encodeURIComponent(products[0].brand)}&sort=price_asc`);
    expect(status).toBe(200);
    expect(headTag(text, /<meta name="robots" content="([^"]*)"/)).toBe('noindex, follow');
    expect(headTag(text, /<link rel="canonical" href="([^"]*)"/)).toBe(`${baseURL}/c/${slugify(lvl0)}`);
    const search = await get(baseURL, '/search?q=lamp');
    expect(headTag(search.text, /<meta name="robots" content="([^"]*)"/)).toBe('noindex, follow');
  });

  it('renders a product page with Product and BreadcrumbList JSON-LD and Open Graph tags', async () => {
    const { baseURL, products } = shop.harness;
    const product = products.find((candidate) => candidate.reviewCount > 0)!;
    const { status, text } = await get(baseURL, productPath(product));
    expect(status).toBe(200);
    expect(text).toContain(`<h1 class="vt-product-name">`);
    const data = jsonLd(text);
    const item = data.find((entry) => entry['@type'] === 'Product') as Record<string, unknown>;
    expect(item.name).toBe(product.name);
    expect(item.image).toEqual([`${baseURL}${product.image}`]);
    expect(item.offers).toMatchObject({ price: product.price.toFixed(2), priceCurrency: 'USD', availability: 'https://schema.org/InStock' });
    expect(item.aggregateRating).toMatchObject({ ratingValue: product.rating, reviewCount: product.reviewCount });
    const trail = data.find((entry) => entry['@type'] === 'BreadcrumbList') as { itemListElement: Array<{ name: string; position: number }> };
    expect(trail.itemListElement.map((entry) => entry.name)).toEqual(['Home', ...product.hierarchicalCategories.lvl2.split(' > '), product.name]);
    expect(headTag(text, /<meta property="og:type" content="([^"]*)"/)).toBe('product');
    expect(headTag(text, /<meta property="og:image" content="([^"]*)"/)).toBe(`${baseURL}${product.image}`);
    expect(headTag(text, /<link rel="canonical" href="([^"]*)"/)).toBe(`${baseURL}${productPath(product)}`);
  });

  it('keeps a record that holds </script> inert in the page state and the JSON-LD', async () => {
    const { baseURL } = shop.harness;
    const { status, text } = await get(baseURL, productPath(hostile));
    expect(status).toBe(200);
    expect(text).not.toContain('<script>window.__pwned');
    const state = new RegExp(`<script type="application/json" id="${pageStateElementId}">([\\s\\S]*?)</script>`).exec(text)!;
    expect(JSON.parse(state[1]).product.record.name).toBe(hostile.name);
    expect((jsonLd(text).find((entry) => entry['@type'] === 'Product') as { name: string }).name).toBe(hostile.name);
  });

  it('answers 404 for an unknown address, category or product, and keeps files and the API as they were', async () => {
    const { baseURL } = shop.harness;
    for (const path of ['/nope', '/c/no-such-category', '/p/nothing-zz404']) {
      const { status, text, type } = await get(baseURL, path);
      expect(status, path).toBe(404);
      expect(type).toContain('text/html');
      expect(text).toContain('class="vt-not-found-search"');
      expect(text).toContain('<meta name="robots" content="noindex"/>');
    }
    expect((await get(baseURL, '/assets/missing.js', { accept: '*/*' })).status).toBe(404);
    const api = await get(baseURL, '/1/nothing', { accept: 'application/json' });
    expect(api.status).toBe(404);
    expect(JSON.parse(api.text)).toMatchObject({ status: 404 });
    // The console stays a client-rendered app: the shell, 200.
    const console = await get(baseURL, '/admin/keys');
    expect(console.status).toBe(200);
    expect(console.text).not.toContain(pageStateElementId);
  });

  it('serves a paged sitemap of the categories and products, and robots.txt pointing at it', async () => {
    const { baseURL, products } = shop.harness;
    const index = await get(baseURL, '/sitemap.xml', {});
    expect(index.status).toBe(200);
    expect(index.type).toContain('application/xml');
    expect(index.text).toContain(`<loc>${baseURL}/sitemaps/1.xml</loc>`);
    const page = await get(baseURL, '/sitemaps/1.xml', {});
    const locs = [...page.text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);
    for (const product of products.slice(0, 20)) expect(locs).toContain(`${baseURL}${productPath(product)}`);
    expect(locs).toContain(`${baseURL}/c/${slugify(products[0].hierarchicalCategories.lvl0)}`);
    expect(locs.length).toBe(new Set(locs).size);
    expect((await get(baseURL, '/sitemaps/2.xml', {})).status).toBe(404);
    const robots = await get(baseURL, '/robots.txt', {});
    expect(robots.text).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
    expect(robots.text).toMatch(/^Disallow: \/admin$/m);
  });
});
