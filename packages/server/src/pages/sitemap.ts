/**
 * `sitemap.xml` as a sitemap index of pages of at most 50,000 URLs (the protocol's limit per file), and
 * `robots.txt` pointing at it. Pure text builders; `page-routes.ts` serves them.
 */

export const SITEMAP_PAGE_SIZE = 50_000;

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function sitemapPageCount(urls: number, pageSize = SITEMAP_PAGE_SIZE): number {
  return Math.max(1, Math.ceil(urls / pageSize));
}

export function sitemapIndex(origin: string, pages: number): string {
  const entries = Array.from({ length: pages }, (_, index) => `<sitemap><loc>${escapeXml(`${origin}/sitemaps/${index + 1}.xml`)}</loc></sitemap>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</sitemapindex>\n`;
}

/** Page `page` (1-based) of the URL set, or undefined past the last page. */
export function sitemapPage(origin: string, paths: readonly string[], page: number, pageSize = SITEMAP_PAGE_SIZE): string | undefined {
  if (!Number.isInteger(page) || page < 1 || page > sitemapPageCount(paths.length, pageSize)) return undefined;
  const slice = paths.slice((page - 1) * pageSize, page * pageSize);
  const entries = slice.map((path) => `<url><loc>${escapeXml(`${origin}${path}`)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</urlset>\n`;
}

/**
 * Crawlers stay out of the console, the cart and checkout, the API, and URLs that only re-sort or re-lay a
 * listing. Searches and refinements stay crawlable: their pages say `noindex, follow` themselves, and their
 * links lead to products.
 */
export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Disallow: /admin',
    'Disallow: /cart',
    'Disallow: /checkout',
    'Disallow: /1/',
    'Disallow: /2/',
    'Disallow: /*?*sort=',
    'Disallow: /*?*per_page=',
    'Disallow: /*?*view=',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}
