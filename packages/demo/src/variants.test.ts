import { describe, expect, it } from 'vitest';
import type { Product } from '@vitrine/protocol';
import { generateProducts } from './generate.ts';
import { leaves, withSize } from './catalogue/leaves.ts';

const products = [...generateProducts(10_000, 1)];
const groups = new Map<string, Product[]>();
for (const p of products) groups.set(p.groupID!, [...(groups.get(p.groupID!) ?? []), p]);

describe('product names', () => {
  it('are unique in the default catalogue of 10,000', () => {
    expect(new Set(products.map((p) => p.name)).size).toBe(products.length);
  });

  it('are unique at a million: the busiest brands, whose names could collide most, never repeat one', () => {
    // Brands are single words that open the name, so names can only collide within a brand. The busiest brands
    // (told by the first 100,000 products) make the most models; streaming the million and keeping only their
    // names stays fast and small.
    const perBrand = new Map<string, number>();
    for (const p of generateProducts(100_000, 1)) perBrand.set(p.brand, (perBrand.get(p.brand) ?? 0) + 1);
    const busiest = new Set([...perBrand.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([brand]) => brand));
    const names = new Map<string, number>();
    for (const p of generateProducts(1_000_000, 1)) {
      if (busiest.has(p.brand)) names.set(p.name, (names.get(p.name) ?? 0) + 1);
    }
    expect(names.size).toBeGreaterThan(60_000);
    expect([...names.values()].every((n) => n === 1)).toBe(true);
    expect([...perBrand.keys()].every((brand) => !brand.includes(' '))).toBe(true);
  }, 60_000);
});

describe('variants', () => {
  it('come in groups of one to eight consecutive products, many with several variants', () => {
    const sizes = [...groups.values()].map((g) => g.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(8);
    expect(sizes.filter((n) => n > 1).length).toBeGreaterThan(groups.size / 4);
    for (const group of groups.values()) {
      const ids = group.map((p) => Number(p.objectID));
      expect(ids).toEqual(ids.map((_, k) => ids[0] + k));
    }
  });

  it('share a model: brand, category, name stem and a price band; each has its own colour or size', () => {
    for (const group of groups.values()) {
      const [first] = group;
      const noun = leaves.find((leaf) => leaf.lvl2 === first.hierarchicalCategories.lvl2)!.type.noun;
      // The name less its colour, size and noun: brand, line, model and material, the same for every variant.
      const stem = (p: Product) => {
        const withoutColour = p.name.replace(new RegExp(`, ${p.color}$`), '');
        const ending = p.size ? withSize(noun, p.size) : noun;
        expect(withoutColour.endsWith(' ' + ending), p.name).toBe(true);
        return withoutColour.slice(0, -ending.length);
      };
      for (const p of group) {
        expect(p.brand).toBe(first.brand);
        expect(p.hierarchicalCategories.lvl2).toBe(first.hierarchicalCategories.lvl2);
        expect(stem(p)).toBe(stem(first));
      }
      const prices = group.map((p) => p.price);
      // Sizes cost up to 40 % more; rounding to shop prices (x.99, x9.99) adds a little on cheap items.
      expect(Math.max(...prices) / Math.min(...prices)).toBeLessThan(1.6);
      expect(new Set(group.map((p) => `${p.size}/${p.color}`)).size).toBe(group.length);
      expect(new Set(group.map((p) => p.image)).size).toBe(new Set(group.map((p) => p.color)).size);
    }
  });
});

describe('ratings', () => {
  it('are 0 exactly when there is no review', () => {
    for (const p of products) expect(p.rating === 0).toBe(p.reviewCount === 0);
    expect(products.some((p) => p.reviewCount === 0)).toBe(true);
  });

  it('spread over the scale with few reviews and gather near 4 with many', () => {
    const few = new Set(products.filter((p) => p.reviewCount > 0 && p.reviewCount <= 3).map((p) => p.rating));
    expect([...few].sort()).toEqual([1, 2, 3, 4, 5]);
    const many = products.filter((p) => p.reviewCount >= 200);
    expect(many.filter((p) => p.rating >= 3 && p.rating <= 5).length).toBeGreaterThan(0.95 * many.length);
    expect(many.filter((p) => p.rating === 4).length).toBeGreaterThan(many.length / 2);
  });
});
