import type { IndexSettings } from '@vitrine/protocol';

/** The index the storefront searches by default. */
export const demoIndexName = 'products';

/** Names of the sort replicas, as the storefront configuration lists them. */
export const demoReplicas = {
  priceAsc: 'products_price_asc',
  priceDesc: 'products_price_desc',
  relevantPriceAsc: 'products_relevant_price_asc',
} as const;

/** Algolia's default tie-breaking criteria, which the standard replicas keep after their sort. */
const DEFAULT_RANKING = ['typo', 'geo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom'];

const searchableAttributes = [
  'name',
  'brand',
  'categories',
  'hierarchicalCategories.lvl0,hierarchicalCategories.lvl1,hierarchicalCategories.lvl2',
  'unordered(description)',
];

const attributesForFaceting = [
  'searchable(brand)',
  'categories',
  'hierarchicalCategories.lvl0',
  'hierarchicalCategories.lvl1',
  'hierarchicalCategories.lvl2',
  'color',
  'price',
  'rating',
  'free_shipping',
  // The storefront's variant picker lists a model's variants by filtering on it; never shown as a facet.
  'filterOnly(groupID)',
];

/**
 * Highlight what the storefront shows highlighted (a hit's name; the description is a snippet). Algolia's
 * default, every searchable attribute, would also mark up the brand, the categories and the whole description
 * for nothing: 70% more bytes per page of results and a tenth more of the search's time (docs/PERFORMANCE.md).
 */
const attributesToHighlight = ['name'];

/** Settings of the primary demo index. */
export const demoSettings: IndexSettings = {
  searchableAttributes: [...searchableAttributes],
  attributesForFaceting: [...attributesForFaceting],
  customRanking: ['desc(popularity)', 'desc(rating)'],
  attributesToHighlight: [...attributesToHighlight],
  attributesToSnippet: ['description:20'],
  // Variants of one model share a groupID. `distinct` stays off here: the storefront asks for it per request
  // where one variant per model is wanted.
  attributeForDistinct: 'groupID',
  // The demo starts with learning on: queries' results re-ranked from its generated history's clicks and purchases,
  // and personalized for a shopper with a profile (`demoPersonalizationStrategy`, `learning.ts`).
  enableReRanking: true,
  enablePersonalization: true,
  replicas: [demoReplicas.priceAsc, demoReplicas.priceDesc, `virtual(${demoReplicas.relevantPriceAsc})`],
};

/**
 * Settings of each replica, by name. Standard replicas sort exhaustively (the sort comes before relevance) and
 * repeat the primary's search settings so they behave the same whatever the server copies at creation; the
 * virtual replica inherits everything and only changes the custom ranking, with relevant sort
 * (`relevancyStrictness`) deciding how many of the less relevant hits are left out.
 */
export const demoReplicaSettings: Record<string, IndexSettings> = {
  [demoReplicas.priceAsc]: {
    searchableAttributes: [...searchableAttributes],
    attributesForFaceting: [...attributesForFaceting],
    ranking: ['asc(price)', ...DEFAULT_RANKING],
    attributeForDistinct: 'groupID',
    customRanking: ['desc(popularity)', 'desc(rating)'],
    attributesToHighlight: [...attributesToHighlight],
    enableReRanking: true,
    enablePersonalization: true,
  },
  [demoReplicas.priceDesc]: {
    searchableAttributes: [...searchableAttributes],
    attributesForFaceting: [...attributesForFaceting],
    ranking: ['desc(price)', ...DEFAULT_RANKING],
    attributeForDistinct: 'groupID',
    customRanking: ['desc(popularity)', 'desc(rating)'],
    attributesToHighlight: [...attributesToHighlight],
    enableReRanking: true,
    enablePersonalization: true,
  },
  [demoReplicas.relevantPriceAsc]: {
    customRanking: ['asc(price)'],
    relevancyStrictness: 50,
  },
};
