import type { TypoTolerance, IgnorePlurals, RemoveWordsIfNoResults, QueryType, Distinct, RenderingContent, FilterList } from './search-params.ts';

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
  /** Dynamic re-ranking from the shop's events (off by default; searches may turn it off with `enableReRanking: false`). */
  enableReRanking?: boolean;
  /** Restricts dynamic re-ranking to the records these filters match (a filter string, or a list as `facetFilters`). */
  reRankingApplyFilter?: string | FilterList | null;
  /**
   * Vitrine's setting: searches of the index boost the category query categorization predicts for their query
   * (as `extensions.queryCategorization.enableAutoFiltering: true` does per search). Default false.
   */
  queryCategorizationAutoFiltering?: boolean;
  /**
   * Vitrine's extension (named as Meilisearch names it): where records' and queries' vectors come from, by
   * embedder name. Records carry theirs in `_vectors: { <name>: number[] }`; searches use them with `vector` and
   * `hybrid` (SearchParams). Replaced whole by a settings update, as every setting.
   */
  embedders?: Record<string, EmbedderSettings>;
  /**
   * Vitrine's extension: the `hybrid` of searches that send neither `hybrid` nor `vector` (a search's own wins;
   * `{ "semanticRatio": 0 }` in a search turns it off). Unset: such searches are keyword searches, as Algolia's.
   */
  hybrid?: { embedder?: string; semanticRatio?: number } | null;
  /** Anything else Algolia accepts is stored and returned untouched. */
  [setting: string]: unknown;
}

/**
 * One embedder of `embedders`. `userProvided`: vectors come with the records (`_vectors`) and the queries
 * (`vector`). `rest`: an HTTP endpoint the shop runs (OpenAI-compatible, Ollama-style or any JSON shape the
 * `request` and `response` templates describe), called by the server for records after they are written and for
 * a query's text at search time. `huggingFace`: a sentence model in ONNX format, from a folder on the server's
 * disk, run by the server itself for the same texts.
 */
export type EmbedderSettings = UserProvidedEmbedder | RestEmbedder | HuggingFaceEmbedder;

/** Embedders whose vectors the server makes from records' texts and queries' text. */
export type ComputedEmbedder = RestEmbedder | HuggingFaceEmbedder;

/** How a record becomes the text an embedder is given. */
export interface DocumentTemplateSettings {
  /**
   * The text of a record: `{{doc.attribute}}` placeholders (dotted paths; lists joined with ", "). Default: the
   * searchable attributes' values, one `attribute: value` line each.
   */
  documentTemplate?: string;
  /** A record's text is cut to this many bytes of UTF-8. Default 400, as Meilisearch. */
  documentTemplateMaxBytes?: number;
}

/**
 * A local sentence model (Meilisearch's `huggingFace` source, which downloads a model from the Hugging Face Hub:
 * Vitrine downloads nothing). `model` names a folder inside the server's models folder (`<data folder>/models`
 * by default) holding `tokenizer.json` and `model.onnx` (or `onnx/model.onnx`), as the Hub's ONNX exports lay
 * them out: `"sentence-transformers/all-MiniLM-L6-v2"` is `<models>/sentence-transformers/all-MiniLM-L6-v2/`.
 */
export interface HuggingFaceEmbedder extends DocumentTemplateSettings {
  source: 'huggingFace';
  /** The model's output size (checked against the model when the settings are written). */
  dimensions: number;
  model: string;
  /**
   * How the model's token vectors become one: `useModel` (default: what the folder's `1_Pooling/config.json`
   * says, else the mean), `forceMean` (the mean of the tokens' vectors), `forceCls` (the first token's).
   */
  pooling?: 'useModel' | 'forceMean' | 'forceCls';
}

/** One embedder as `GET /1/indexes/{index}/embedders` reports it (Vitrine's extension). */
export interface EmbedderStatus {
  source: EmbedderSettings['source'];
  dimensions: number;
  /** Records holding a vector of this embedder, and those without one. */
  vectors: number;
  missing: number;
  /**
   * `embedding`: records are being embedded (a round under way or due); `failing`: the last round failed
   * (waiting to try again), or a local model's last load did; `idle` otherwise.
   */
  state: 'idle' | 'embedding' | 'failing';
  lastError?: string;
  lastErrorAt?: string;
}

/** `GET /1/indexes/{index}/embedders`: the index's embedders by name. */
export interface EmbeddersResponse {
  embedders: Record<string, EmbedderStatus>;
}

export interface UserProvidedEmbedder {
  source: 'userProvided';
  /** Numbers per vector (1 to 4,096): every vector of this embedder, record's or query's, has exactly these. */
  dimensions: number;
}

export interface RestEmbedder extends DocumentTemplateSettings {
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
}
