/**
 * The state a server-rendered page carries for hydration: the configuration, the category tree, InstantSearch's
 * first results and the product record. It travels as inert JSON (`<script type="application/json">`), which no
 * browser runs and the Content-Security-Policy leaves alone; `<` is escaped so a record holding `</script>` or
 * `<!--` cannot end the element early.
 */
import type { InitialResults } from 'instantsearch.js';
import type { Product } from '@vitrine/protocol';
import type { CategoryNode } from './catalog.ts';

export const pageStateElementId = 'vitrine-state';

export interface PageState {
  /** The served `vitrine.config.json`, so the page needs no request before hydrating. */
  config: Record<string, unknown>;
  categories: CategoryNode[];
  /** InstantSearch's results for the search or category page, as `getServerState()` returned them. */
  search?: { initialResults: InitialResults };
  /** The home page's featured products. */
  featured?: Product[];
  /** The product page's record, null for an unknown product. */
  product?: { objectID: string; record: Product | null };
  /** The product page's variants: the records sharing its `groupID`. */
  variants?: { groupID: string; hits: Array<Pick<Product, 'objectID' | 'slug' | 'name' | 'color' | 'image' | 'price'>> };
}

/**
 * JSON that is safe inside a `<script>` element and in HTML at large: `<`, `>` and `&` as `\u` escapes (JSON
 * reads them back unchanged), and U+2028/U+2029, which older parsers took for line ends.
 */
export function inertJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function pageStateScript(state: PageState): string {
  return `<script type="application/json" id="${pageStateElementId}">${inertJson(state)}</script>`;
}

/** The state the server put in the page, or undefined for a client-rendered page (app shell, or unreadable state). */
export function readPageState(document: Document): PageState | undefined {
  const text = document.getElementById(pageStateElementId)?.textContent;
  if (!text) return undefined;
  try {
    const state = JSON.parse(text) as PageState;
    return typeof state === 'object' && state !== null && Array.isArray(state.categories) ? state : undefined;
  } catch {
    return undefined;
  }
}
