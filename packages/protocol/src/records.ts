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
  name: string;
  description: string;
  brand: string;
  categories: string[];
  hierarchicalCategories: { lvl0: string; lvl1: string; lvl2: string };
  /** Price in the shop's currency, two decimals. */
  price: number;
  /** Average rating, 1 to 5 (integer, as the rating filter expects). */
  rating: number;
  reviewCount: number;
  color: string;
  free_shipping: boolean;
  popularity: number;
  /** Same-origin path of a locally generated image. */
  image: string;
  /** URL slug, used with the objectID in product page URLs. */
  slug: string;
}
