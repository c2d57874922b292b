import { describe, expect, it } from 'vitest';
import { inText, leaves } from './leaves.ts';
import { departments } from './taxonomy.ts';

describe('the category tree', () => {
  it('has 8 departments, 40 categories and about 150 product types', () => {
    expect(departments).toHaveLength(8);
    expect(departments.flatMap((d) => d.categories)).toHaveLength(40);
    expect(leaves.length).toBeGreaterThanOrEqual(140);
    expect(leaves.length).toBeLessThanOrEqual(160);
  });

  it('names each product type once, so image names and facet values are unambiguous', () => {
    expect(new Set(leaves.map((leaf) => leaf.slug)).size).toBe(leaves.length);
    expect(new Set(leaves.map((leaf) => leaf.type.category)).size).toBe(leaves.length);
  });

  it('never uses the hierarchy separator inside a name', () => {
    for (const leaf of leaves) for (const name of leaf.categories) expect(name).not.toContain('>');
  });

  it('has sensible price ranges and at least one material per type', () => {
    for (const leaf of leaves) {
      expect(leaf.type.minPrice).toBeGreaterThan(0);
      expect(leaf.type.maxPrice).toBeGreaterThan(leaf.type.minPrice);
      expect(leaf.materials.length).toBeGreaterThan(0);
    }
  });
});

describe('inText', () => {
  it('lower-cases words but keeps single letters and acronyms', () => {
    expect(inText('Vitamin C')).toBe('vitamin C');
    expect(inText('Table Lamp')).toBe('table lamp');
    expect(inText('SPF 30')).toBe('SPF 30');
  });
});
