import { describe, expect, it } from 'vitest';
import { generateProducts } from './generate.ts';
import { renderProductImage } from './images/render.ts';

const take = (count: number, seed?: number) => [...generateProducts(count, seed)];

describe('generateProducts', () => {
  it('is deterministic: the same seed gives the same products, byte for byte', () => {
    expect(JSON.stringify(take(500, 42))).toBe(JSON.stringify(take(500, 42)));
  });

  it('gives a different catalogue for a different seed', () => {
    const a = take(50, 1).map((p) => p.name);
    const b = take(50, 2).map((p) => p.name);
    expect(a).not.toEqual(b);
  });

  it('makes a short catalogue a prefix of a longer one with the same seed', () => {
    expect(take(100, 9)).toEqual(take(1000, 9).slice(0, 100));
  });

  it('streams lazily: nothing is generated before it is asked for', () => {
    const stream = generateProducts(10 ** 9, 3);
    expect(stream.next().value?.objectID).toBe('1');
  });

  it('rejects a count that is not a non-negative integer', () => {
    expect(() => generateProducts(-1).next()).toThrow(RangeError);
    expect(() => generateProducts(1.5).next()).toThrow(RangeError);
    expect(take(0)).toEqual([]);
  });

  const products = take(3000, 7);

  it('gives unique, stable string objectIDs', () => {
    expect(new Set(products.map((p) => p.objectID)).size).toBe(products.length);
    expect(products.slice(0, 3).map((p) => p.objectID)).toEqual(['1', '2', '3']);
  });

  it('fills every field with the right shape and range', () => {
    for (const p of products) {
      expect(typeof p.name).toBe('string');
      expect(p.name.startsWith(p.brand + ' ')).toBe(true);
      expect(p.description).toMatch(/^An? [a-z]+ .+\. [A-Z].+\.$/);
      expect(p.description).toContain(p.brand);
      expect(p.description.toLowerCase()).toContain(p.color.toLowerCase());
      expect(Number.isInteger(p.rating) && p.rating >= 0 && p.rating <= 5).toBe(true);
      expect(Number.isInteger(p.reviewCount) && p.reviewCount >= 0).toBe(true);
      expect(Number.isInteger(p.popularity) && p.popularity >= 0).toBe(true);
      expect(p.price).toBeGreaterThan(0);
      // Two decimals at most: the value survives a round trip through its two-decimal text.
      expect(Number(p.price.toFixed(2))).toBe(p.price);
      expect(typeof p.free_shipping).toBe('boolean');
      expect(p.image).toMatch(/^\/images\/products\/[a-z0-9-]+\.svg$/);
      expect(p.categories).toHaveLength(3);
      expect(p.groupID).toMatch(/^g\d+$/);
    }
  });

  it('builds names a shopper can search: brand, model, material, product type, size and colour', () => {
    const lamps = products.filter((p) => p.categories[2] === 'Table Lamps');
    expect(lamps.length).toBeGreaterThan(5);
    for (const lamp of lamps) {
      expect(lamp.name).toMatch(/^[A-Z][a-z]+( [A-Z][a-z]+)? [A-Z][a-z]+( \d+)? [A-Z][\w ]* Table Lamp( \d+ cm)?(, [A-Z][a-z]+)?$/);
    }
    const saws = take(20_000, 7).filter((p) => p.categories[2] === 'Circular Saws');
    for (const saw of saws) expect(saw.name).toMatch(/^[A-Z][a-z]+( [A-Z][a-z]+)? CS-\d{3,} [A-Z][\w ]* Circular Saw(, [A-Z][a-z]+)?$/);
  });

  it('never repeats a word in a name ("Set Set", "Compact Compact")', () => {
    for (const p of take(20_000, 3)) expect(p.name).not.toMatch(/\b(\w+) \1\b/i);
  });

  it('keeps the hierarchy consistent with the flat categories', () => {
    for (const p of products) {
      const { lvl0, lvl1, lvl2 } = p.hierarchicalCategories;
      expect(lvl1.startsWith(lvl0 + ' > ')).toBe(true);
      expect(lvl2.startsWith(lvl1 + ' > ')).toBe(true);
      expect(lvl2.split(' > ')).toEqual(p.categories);
    }
  });

  it('has a realistic spread: about 8 departments, 40 categories, 150 product types, hundreds of brands', () => {
    const many = take(60_000, 11);
    const count = (f: (p: (typeof many)[number]) => string) => new Set(many.map(f)).size;
    expect(count((p) => p.hierarchicalCategories.lvl0)).toBe(8);
    expect(count((p) => p.hierarchicalCategories.lvl1)).toBe(40);
    expect(count((p) => p.hierarchicalCategories.lvl2)).toBeGreaterThanOrEqual(140);
    const brands = count((p) => p.brand);
    expect(brands).toBeGreaterThanOrEqual(150);
    expect(brands).toBeLessThanOrEqual(300);
  });

  it('skews brands to a long tail and ratings to 4', () => {
    const many = take(20_000, 5);
    const perBrand = new Map<string, number>();
    for (const p of many) perBrand.set(p.brand, (perBrand.get(p.brand) ?? 0) + 1);
    const counts = [...perBrand.values()].sort((a, b) => b - a);
    expect(counts[0]).toBeGreaterThan(5 * counts[counts.length - 1]);
    const ratings = [0, 0, 0, 0, 0, 0];
    for (const p of many) ratings[p.rating]++;
    expect(Math.max(...ratings)).toBe(ratings[4]);
    expect(ratings[0]).toBeGreaterThan(0);
  });

  it('prices plausibly per category: a laptop costs more than a mug', () => {
    const median = (category: string) => {
      const prices = products.filter((p) => p.categories[2] === category).map((p) => p.price).sort((a, b) => a - b);
      return prices[prices.length >> 1];
    };
    expect(median('Laptops')).toBeGreaterThan(10 * median('Mugs'));
  });

  it('gives every product a kebab-case slug of its name', () => {
    for (const p of products) {
      expect(p.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      const words = p.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
      expect(p.slug).toBe(words.replace(/^-|-$/g, ''));
    }
  });

  it('points every image at an illustration the renderer knows', () => {
    for (const p of products.slice(0, 500)) {
      const name = p.image.slice('/images/products/'.length);
      expect(renderProductImage(name)).toMatch(/^<svg /);
    }
  });
});
