/**
 * The demo's merchandising rules, Algolia-shaped, saved with the catalogue: a pinned product on "lamp", a sale
 * banner (userData) on "sale", a redirect on "help", and a brand boosted when the storefront searches within a
 * category (rule context `category-<department slug>`). Built from the products generated, so every objectID
 * and brand they name exists.
 */
import type { Product, Rule } from '@vitrine/protocol';
import { slugify } from './slug.ts';

/** What the rules need from the catalogue: the first lamp generated (its id, brand and department). */
export interface DemoRuleSources {
  lamp: Pick<Product, 'objectID' | 'brand' | 'hierarchicalCategories'> | undefined;
}

/** Picks, from the products as they are generated, what `demoRules` needs; call `add` for each product. */
export function demoRuleSources(): DemoRuleSources & { add(product: Product): void } {
  const sources: DemoRuleSources & { add(product: Product): void } = {
    lamp: undefined,
    add(product) {
      if (sources.lamp === undefined && / lamp\b/i.test(` ${product.name}`)) sources.lamp = product;
    },
  };
  return sources;
}

/** The rules context the storefront sends while a shopper browses a department. */
export function categoryContext(department: string): string {
  return `category-${slugify(department)}`;
}

export function demoRules({ lamp }: DemoRuleSources): Rule[] {
  const rules: Rule[] = [
    {
      objectID: 'demo-sale-banner',
      description: 'A sale banner on searches for "sale"; the word itself is not searched',
      conditions: [{ pattern: 'sale', anchoring: 'contains' }],
      consequence: {
        params: { query: { edits: [{ type: 'remove', delete: 'sale' }] } },
        userData: { type: 'banner', title: 'Winter sale', text: 'Up to 30% off selected products', link: '/' },
      },
    },
    {
      objectID: 'demo-help-redirect',
      description: 'Searching "help" leads to the help page',
      conditions: [{ pattern: 'help', anchoring: 'is' }],
      consequence: { params: { renderingContent: { redirect: { url: '/help' } } } },
    },
  ];
  if (lamp !== undefined) {
    rules.push({
      objectID: 'demo-pinned-lamp',
      description: 'One lamp pinned first on lamp searches',
      conditions: [{ pattern: 'lamp', anchoring: 'contains', alternatives: true }],
      consequence: { promote: [{ objectID: lamp.objectID, position: 0 }], filterPromotes: true },
    });
    const department = lamp.hierarchicalCategories.lvl0;
    {
      rules.push({
        objectID: 'demo-boosted-brand',
        description: `${lamp.brand} first while browsing ${department}`,
        conditions: [{ context: categoryContext(department) }],
        consequence: { params: { optionalFilters: [`brand:${lamp.brand}<score=5>`] } },
      });
    }
  }
  return rules;
}
