import type { TypoTolerance, IgnorePlurals, RemoveWordsIfNoResults, QueryType, Distinct, RenderingContent } from './search-params.ts';

/**
 * Index settings, as `GET/PUT /1/indexes/{index}/settings` carry them.
 * Every field is optional on the wire; the engine fills defaults (documented per field).
 */
export interface IndexSettings {
  /** Attributes searched, in order of importance; `unordered(attr)` ignores the position within it. Default: all. */
  searchableAttributes?: string[];
  /** Facetable attributes; modifiers `searchable(attr)`, `filterOnly(attr)`, `afterDistinct(attr)`. Default: []. */
  attributesForFaceting?: string[];
  /** Attributes never returned, whatever `attributesToRetrieve` says. */
  unretrievableAttributes?: string[];
  attributesToRetrieve?: string[];
  /** Tie-breaking criteria, in order. Default: typo, geo, words, filters, proximity, attribute, exact, custom. */
  ranking?: string[];
  /** `desc(attr)` / `asc(attr)` applied by the `custom` criterion. */
  customRanking?: string[];
  /** Standard replicas by name, virtual ones as `virtual(name)`. */
  replicas?: string[];
  /** Set on a replica: the index it mirrors. */
  primary?: string;
  relevancyStrictness?: number;
  attributesToHighlight?: string[];
  attributesToSnippet?: string[];
  highlightPreTag?: string;
  highlightPostTag?: string;
  snippetEllipsisText?: string;
  restrictHighlightAndSnippetArrays?: boolean;
  hitsPerPage?: number;
  paginationLimitedTo?: number;
  minWordSizefor1Typo?: number;
  minWordSizefor2Typos?: number;
  typoTolerance?: TypoTolerance;
  allowTyposOnNumericTokens?: boolean;
  disableTypoToleranceOnAttributes?: string[];
  disableTypoToleranceOnWords?: string[];
  separatorsToIndex?: string;
  queryType?: QueryType;
  removeWordsIfNoResults?: RemoveWordsIfNoResults;
  advancedSyntax?: boolean;
  advancedSyntaxFeatures?: string[];
  optionalWords?: string[] | string | null;
  ignorePlurals?: IgnorePlurals;
  removeStopWords?: boolean | string[];
  decompoundQuery?: boolean;
  queryLanguages?: string[];
  indexLanguages?: string[];
  attributeForDistinct?: string;
  distinct?: Distinct;
  maxValuesPerFacet?: number;
  maxFacetHits?: number;
  sortFacetValuesBy?: 'count' | 'alpha';
  renderingContent?: RenderingContent;
  attributeCriteriaComputedByMinProximity?: boolean;
  minProximity?: number;
  numericAttributesForFiltering?: string[];
  allowCompressionOfIntegerArray?: boolean;
  userData?: unknown;
  /** Personalization by the searching user's affinities (off by default; the `enablePersonalization` parameter wins). */
  enablePersonalization?: boolean;
  /**
   * Vitrine's extension (named as Meilisearch names it): where records' and queries' vectors come from, by
   * embedder name. Records carry theirs in `_vectors: { <name>: number[] }`; searches use them with `vector` and
   * `hybrid` (SearchParams). Replaced whole by a settings update, as every setting.
   */
  embedders?: Record<string, EmbedderSettings>;
  /** Anything else Algolia accepts is stored and returned untouched. */
  [setting: string]: unknown;
}

/**
 * One embedder of `embedders`. `userProvided`: vectors come with the records (`_vectors`) and the queries
 * (`vector`). `rest`: an HTTP endpoint the shop runs (OpenAI-compatible, Ollama-style or any JSON shape the
 * `request` and `response` templates describe), called by the server for records after they are written and for
 * a query's text at search time.
 */
export type EmbedderSettings = UserProvidedEmbedder | RestEmbedder;

export interface UserProvidedEmbedder {
  source: 'userProvided';
  /** Numbers per vector (1 to 4,096): every vector of this embedder, record's or query's, has exactly these. */
  dimensions: number;
}

export interface RestEmbedder {
  source: 'rest';
  dimensions: number;
  /** The endpoint, http or https, called with POST and a JSON body. */
  url: string;
  /**
   * The JSON body sent: `"{{text}}"` where a text goes, or `["{{text}}", "{{..}}"]` for a list of texts (several
   * records per call).
   */
  request: unknown;
  /**
   * Where the vector is in the JSON answer: `"{{embedding}}"` at its place, in a list `[<item>, "{{..}}"]` when
   * the request sends a list.
   */
  response: unknown;
  /** Extra request headers (values that look like secrets are masked when settings are read). */
  headers?: Record<string, string>;
  /** Sent as `Authorization: Bearer <apiKey>`; never logged, masked when settings are read. */
  apiKey?: string;
  /**
   * The text of a record: `{{doc.attribute}}` placeholders (dotted paths; lists joined with ", "). Default: the
   * searchable attributes' values, one `attribute: value` line each.
   */
  documentTemplate?: string;
  /** A record's text is cut to this many bytes of UTF-8. Default 400, as Meilisearch. */
  documentTemplateMaxBytes?: number;
}
