import { describe, expect, it } from 'vitest';
import { robotsTxt, sitemapIndex, sitemapPage, sitemapPageCount } from './sitemap.ts';

describe('sitemap', () => {
  it('splits the URLs into pages of the given size and indexes each page', () => {
    const paths = Array.from({ length: 5 }, (_, index) => `/p/item-${index}`);
    expect(sitemapPageCount(paths.length, 2)).toBe(3);
    expect(sitemapIndex('https://shop.test', 3).match(/<loc>/g)).toHaveLength(3);
    expect(sitemapIndex('https://shop.test', 3)).toContain('<loc>https://shop.test/sitemaps/3.xml</loc>');
    expect(sitemapPage('https://shop.test', paths, 3, 2)).toContain('<loc>https://shop.test/p/item-4</loc>');
    expect(sitemapPage('https://shop.test', paths, 3, 2)!.match(/<url>/g)).toHaveLength(1);
    expect(sitemapPage('https://shop.test', paths, 4, 2)).toBeUndefined();
    expect(sitemapPage('https://shop.test', paths, 0, 2)).toBeUndefined();
  });

  it('escapes URLs as XML text', () => {
    expect(sitemapPage('https://shop.test', ['/c/a&b<'], 1)).toContain('/c/a&#38;b&#60;');
  });

  it('points robots.txt at the sitemap and keeps crawlers out of the console', () => {
    const text = robotsTxt('https://shop.test');
    expect(text).toContain('Sitemap: https://shop.test/sitemap.xml');
    expect(text).toMatch(/^Disallow: \/admin$/m);
  });
});
