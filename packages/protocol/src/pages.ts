/**
 * The server-rendering contract between the search server and the storefront: the server loads a module that
 * exports a `PageRenderer` (the storefront's SSR bundle) and calls it for shoppers' page requests, handing it a
 * `PageBackend` that searches in process. The server never imports React; the storefront never opens the store.
 */
import type { IndexRecord } from './records.ts';
import type { SearchParams } from './search-params.ts';
import type { SearchResponse } from './search-response.ts';

/** What the renderer may read, with the storefront's search-only key's restrictions already applied. */
export interface PageBackend {
  /** A multi-query, as `POST /1/indexes/*\/queries` answers it (`params` as an object). */
  search(requests: ReadonlyArray<{ indexName: string; params?: SearchParams }>): Promise<{ results: SearchResponse[] }>;
  /** Records by objectID, in order; null for missing ones. */
  getObjects(indexName: string, objectIDs: readonly string[]): Promise<Array<IndexRecord | null>>;
  /** Every record of an index (for the sitemap), with only the attributes asked for. */
  records(indexName: string, attributes: readonly string[]): AsyncIterable<IndexRecord>;
}

export interface PageRequest {
  /** Path and query string as requested (`/c/lighting?brand=Acme`). */
  url: string;
  /** `https://shop.example`: the origin absolute URLs (canonical, Open Graph, JSON-LD) are written with. */
  origin: string;
  /** The built `index.html`: the document the page is rendered into. */
  shell: string;
  /** The storefront configuration the server serves at `/vitrine.config.json`. */
  config: Record<string, unknown>;
}

export interface RenderedPage {
  /** 200, or 404 for an unknown product, category or path. */
  status: number;
  /** The whole HTML document. */
  html: string;
}

/** The module the server loads (`ServerConfig.storefrontRenderer`) exports these. */
export interface PageRenderer {
  render(request: PageRequest, backend: PageBackend): Promise<RenderedPage>;
  /** Every indexable path of the shop (home, categories, products), for `sitemap.xml`. */
  sitemapPaths(config: Record<string, unknown>, backend: PageBackend): Promise<string[]>;
}

/**
 * The cookie in which the storefront keeps its shopper's anonymous user token (beside its localStorage copy),
 * so that the server searches a rendered page as that shopper's browser searches afterwards: in their A/B test
 * variant, personalized. It holds the token alone, and only while the shop's insights are on.
 */
export const userTokenCookie = 'vitrine_user';
