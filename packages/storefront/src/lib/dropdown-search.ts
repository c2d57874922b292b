/**
 * The search box's dropdown (query suggestions, product previews) searched in the same request as the page's
 * results: one keystroke, one request, as hosted Algolia answers a search box and its autocomplete. While the
 * box has focus, every search InstantSearch sends through `wrap`'s client carries the dropdown's queries for the
 * same text after its own; the answer is split, InstantSearch gets its part, the dropdown the rest.
 *
 * Answers can come back out of order: the dropdown keeps the newest search's answer and ignores an older one
 * arriving after it (InstantSearch's helper does the same for the results).
 */
import type { LegacySearchMethodProps, SearchMethodParams, SearchQuery, SearchResponses } from 'algoliasearch/lite';
import { productPreviewsQuery } from './product-previews.ts';
import type { ProductPreview } from './product-previews.ts';
import type { SearchClient } from './search-client.ts';
import { suggestionsQuery, toSuggestions } from './suggestions.ts';
import type { QuerySuggestion, SuggestionRecord } from './suggestions.ts';

export interface DropdownResults {
  /** The text these answer; undefined before the first answer. */
  query: string | undefined;
  suggestions: QuerySuggestion[];
  products: ProductPreview[];
}

export interface DropdownSearchOptions {
  /** The products index (previews, and the source index suggestions records name). */
  indexName: string;
  /** The suggestions index; undefined when the shop turned suggestions off. */
  suggestionsIndex: string | undefined;
}

type SearchParams = SearchMethodParams | LegacySearchMethodProps;
type RequestOptions = Parameters<SearchClient['search']>[1];
type Listener = (results: DropdownResults) => void;

/** The dropdown's queries for one text, in the order they are appended. */
interface DropdownQueries {
  suggestions?: SearchQuery;
  products?: SearchQuery;
}

function hitsOf(result: unknown): unknown[] {
  const hits = typeof result === 'object' && result !== null && 'hits' in result ? result.hits : undefined;
  return Array.isArray(hits) ? hits : [];
}

/** A refusal (4xx) rather than the network or the server failing: asking again without the same query can pass. */
function isRefusal(error: unknown): boolean {
  const status = typeof error === 'object' && error !== null && 'status' in error ? error.status : undefined;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * The text of a search InstantSearch sends for its results (its call shape: an array of `{ indexName, params }`),
 * undefined for anything else (a facet value search, another caller's `{ requests }`).
 */
function resultsSearchText(params: SearchParams): string | undefined {
  if (!Array.isArray(params) || params.length === 0) return undefined;
  if (params.some((request) => 'type' in request && request.type === 'facet')) return undefined;
  const query = params[0].params?.query;
  return typeof query === 'string' ? query : '';
}

export class DropdownSearch {
  private readonly client: SearchClient;
  private readonly options: DropdownSearchOptions;
  private readonly listeners = new Set<Listener>();
  private active = false;
  /** False once the suggestions index was refused (none built yet, a key limited to the products): not asked again. */
  private suggestionsUsable: boolean;
  private sent = 0;
  private shown = 0;
  private results: DropdownResults = { query: undefined, suggestions: [], products: [] };

  constructor(client: SearchClient, options: DropdownSearchOptions) {
    this.client = client;
    this.options = options;
    this.suggestionsUsable = options.suggestionsIndex !== undefined;
  }

  /** While the search box has focus (the dropdown can show), the page's searches carry the dropdown's queries. */
  setActive(active: boolean): void {
    this.active = active;
  }

  current(): DropdownResults {
    return this.results;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The dropdown's answer for `typed` is already shown, with no newer search under way. */
  private answered(typed: string): boolean {
    return this.shown === this.sent && this.results.query === typed;
  }

  /**
   * For text no search of the page carries (the box just got the focus): the dropdown's queries alone, in one
   * request. A failure shows an empty dropdown: the box works without it.
   */
  async fetch(typed: string): Promise<void> {
    if (this.answered(typed)) return;
    const queries = this.queries(typed);
    const id = ++this.sent;
    const list = [queries.suggestions, queries.products].filter((query) => query !== undefined);
    if (list.length === 0) return this.publish(id, typed, queries, []);
    try {
      const { results } = await this.client.search({ requests: list });
      this.publish(id, typed, queries, results);
    } catch (error) {
      if (isRefusal(error) && queries.suggestions) this.suggestionsUsable = false;
      this.publish(id, typed, queries, []);
    }
  }

  /** A copy of `base` whose searches carry the dropdown's queries while it is active; give it to InstantSearch. */
  wrap(base: SearchClient): SearchClient {
    const search = (params: SearchParams, requestOptions?: RequestOptions) => this.search(base, params, requestOptions);
    return { ...base, search: search as SearchClient['search'] };
  }

  private async search(base: SearchClient, params: SearchParams, requestOptions?: RequestOptions): Promise<SearchResponses<unknown>> {
    const typed = this.active ? resultsSearchText(params) : undefined;
    if (typed === undefined || this.answered(typed) || !Array.isArray(params)) return base.search(params, requestOptions);
    const queries = this.queries(typed);
    const own = [queries.suggestions, queries.products].filter((query) => query !== undefined);
    if (own.length === 0) return base.search(params, requestOptions);
    const id = ++this.sent;
    // InstantSearch's shape (`{ indexName, params }`) for the whole list: the client converts one shape at a time.
    const appended = own.map(({ indexName, ...rest }) => ({ indexName, params: rest })) as LegacySearchMethodProps;
    let response: SearchResponses<unknown>;
    try {
      response = await base.search([...params, ...appended], requestOptions);
    } catch (error) {
      if (!isRefusal(error) || !queries.suggestions) throw error;
      // A multi-query fails whole: the results must not fail for the dropdown. If the page's own queries pass,
      // the suggestions index was what was refused (the previews search the page's index).
      const alone = await base.search(params, requestOptions);
      this.suggestionsUsable = false;
      this.publish(id, typed, {}, []);
      return alone;
    }
    this.publish(id, typed, queries, response.results.slice(params.length));
    return { ...response, results: response.results.slice(0, params.length) };
  }

  private queries(typed: string): DropdownQueries {
    const { indexName, suggestionsIndex } = this.options;
    const products = productPreviewsQuery(indexName, typed);
    return {
      ...(this.suggestionsUsable && suggestionsIndex ? { suggestions: suggestionsQuery(suggestionsIndex, typed) } : {}),
      ...(products ? { products } : {}),
    };
  }

  /** Reads the answers to `queries` (in their order) and shows them, unless a newer search's answer is shown. */
  private publish(id: number, typed: string, queries: DropdownQueries, answers: readonly unknown[]): void {
    if (id < this.shown) return;
    this.shown = id;
    const suggestions = queries.suggestions ? hitsOf(answers[0]) : [];
    const products = queries.products ? hitsOf(answers[queries.suggestions ? 1 : 0]) : [];
    this.results = {
      query: typed,
      suggestions: toSuggestions(suggestions as SuggestionRecord[], typed, this.options.indexName),
      products: products as ProductPreview[],
    };
    for (const listener of this.listeners) listener(this.results);
  }
}
