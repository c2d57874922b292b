import { describe, expect, it } from 'vitest';
import { buildCategoryTree, categoryToSlugs, parseProductPath, productPath, slugify, slugsToCategory } from './catalog.ts';

describe('catalog', () => {
  it('builds product paths the parser reads back, whatever the objectID', () => {
    for (const objectID of ['42', 'p-0001', 'a/b c', 'é-ç']) {
      const path = productPath({ slug: 'lumio-ceramic-table-lamp-40-cm', objectID });
      expect(path.startsWith('/p/lumio-ceramic-table-lamp-40-cm-')).toBe(true);
      expect(parseProductPath(path)).toBe(objectID);
    }
    expect(parseProductPath('/p/whatever-123')).toBe('123');
    expect(parseProductPath('/c/computers')).toBeUndefined();
  });

  it('slugifies names to lowercase ASCII words', () => {
    expect(slugify('Home & Kitchen')).toBe('home-kitchen');
    expect(slugify('  Café Crème ')).toBe('cafe-creme');
  });

  it('maps category names to slugs and back through the tree', () => {
    const tree = buildCategoryTree({
      'hierarchicalCategories.lvl0': { 'Home & Kitchen': 3 },
      'hierarchicalCategories.lvl1': { 'Home & Kitchen > Lighting': 3 },
    });
    expect(categoryToSlugs(tree, ['Home & Kitchen', 'Lighting'])).toEqual(['home-kitchen', 'lighting']);
    expect(slugsToCategory(tree, ['home-kitchen', 'lighting'])).toEqual(['Home & Kitchen', 'Lighting']);
    expect(slugsToCategory(tree, ['home-kitchen', 'nope'])).toBeUndefined();
  });
});
