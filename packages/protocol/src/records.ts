/** A record as stored in an index: any JSON object with a string `objectID`. */
export interface IndexRecord {
  objectID: string;
  [attribute: string]: unknown;
}

/** A record as sent by a caller, before the server assigns a missing `objectID`. */
export type IncomingRecord = Record<string, unknown> & { objectID?: string };

/** One product of the demo catalogue (and the shape the storefront expects). */
export interface Product extends IndexRecord {
  objectID: string;
  /**
   * Variants of one model (its colours and sizes) share a groupID: `distinct` on it shows one variant per model,
   * a filter on it lists the variants. Optional: catalogues without variants leave it out.
   */
  groupID?: string;
  name: string;
  description: string;
  brand: string;
  categories: string[];
  hierarchicalCategories: { lvl0: string; lvl1: string; lvl2: string };
  /** Price in the shop's currency, two decimals. */
  price: number;
  /** Average rating, 1 to 5 (integer, as the rating filter expects); 0 when there are no reviews yet. */
  rating: number;
  reviewCount: number;
  color: string;
  /** The variant's size as its name shows it ("40 cm", "Set of 4"), when the product type comes in sizes. */
  size?: string;
  free_shipping: boolean;
  popularity: number;
  /** Same-origin path of a locally generated image. */
  image: string;
  /** URL slug, used with the objectID in product page URLs. */
  slug: string;
}
