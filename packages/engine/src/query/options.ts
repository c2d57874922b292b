/**
 * The effective options of one search: each parameter from the request, else the settings override (a
 * replica's), else the index settings, else Algolia's default. Values are checked here, so the pipeline can
 * trust them: a wrong type or range is an `INVALID_PARAMETER` (a 400), never a crash later on.
 */
import type { IndexSettings, RenderingContent, SearchParams, QueryType, RemoveWordsIfNoResults } from '@vitrine/protocol';
import { createEngineError } from '../errors.ts';
import { normalizeText, terms } from '../tokenize/index.ts';
import { parseCustomRanking, parseRanking, type RankingCriterion, type SortSpec } from '../settings.ts';
import { COMPOUND_LANGUAGES, languagesFor } from './dictionaries.ts';

export interface SnippetSpec {
  attribute: string;
  words: number;
}

export interface QueryOptions {
  query: string;
  page: number;
  hitsPerPage: number;
  offset: number | undefined;
  length: number | undefined;
  paginationLimitedTo: number;
  queryType: QueryType;
  typoTolerance: boolean | 'min' | 'strict';
  minWordSizefor1Typo: number;
  minWordSizefor2Typos: number;
  allowTyposOnNumericTokens: boolean;
  disableTypoToleranceOnAttributes: string[];
  disableTypoToleranceOnWords: Set<string>;
  /** `ignorePlurals`: the languages whose plurals count as one another (empty: off). */
  pluralLanguages: string[];
  /** `removeStopWords`: the languages whose stop words leave the query (empty: off). */
  stopWordLanguages: string[];
  /** `decompoundQuery`: the languages whose compounds split into their parts (empty: off). */
  decompoundLanguages: string[];
  synonyms: boolean;
  removeWordsIfNoResults: RemoveWordsIfNoResults;
  optionalWords: Set<string>;
  advancedSyntax: boolean;
  exactPhrase: boolean;
  excludeWords: boolean;
  ranking: RankingCriterion[];
  customRanking: SortSpec[];
  relevancyStrictness: number | undefined;
  facets: string[];
  maxValuesPerFacet: number;
  sortFacetValuesBy: 'count' | 'alpha';
  facetingAfterDistinct: boolean;
  attributesToRetrieve: string[];
  unretrievableAttributes: string[];
  attributesToHighlight: string[] | null;
  attributesToSnippet: SnippetSpec[];
  highlightPreTag: string;
  highlightPostTag: string;
  snippetEllipsisText: string;
  restrictSearchableAttributes: string[] | null;
  distinct: number;
  attributeForDistinct: string | undefined;
  /** The `enableReRanking` parameter (default true): re-ranking applies when the index's setting turns it on too. */
  reRankingAsked: boolean;
  /** Re-ranking on a personalized search too (default false, as Algolia; `rank/re-ranking.ts`). */
  allowReRankingOnPersonalization: boolean;
  getRankingInfo: boolean;
  minProximity: number;
  exactOnSingleWordQuery: 'attribute' | 'word' | 'none';
  aroundLatLng: [number, number] | null;
  aroundRadius: number | 'all' | undefined;
  aroundPrecision: number;
  renderingContent: RenderingContent | undefined;
  optionalFilters: SearchParams['optionalFilters'];
  sumOrFiltersScores: boolean;
  maxFacetHits: number;
  separatorsToIndex: string;
}

type Source = Record<string, unknown>;

function invalid(name: string, why: string): never {
  throw createEngineError('INVALID_PARAMETER', name, why);
}

/** A list given as an array, a JSON array string, or a comma-separated string (as url-encoded params carry it). */
export function readList(name: string, value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed.startsWith('[')) {
      try {
        return readList(name, JSON.parse(trimmed));
      } catch {
        invalid(name, 'malformed JSON array');
      }
    }
    return trimmed === '' ? [] : trimmed.split(',').map((s) => s.trim()).filter((s) => s !== '');
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  invalid(name, 'expected a list of strings');
}

function readInt(name: string, value: unknown, fallback: number, min: number, max: number): number {
  if (value === undefined || value === null) return fallback;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n)) invalid(name, 'expected an integer');
  if (n < min || n > max) invalid(name, `expected a value between ${min} and ${max}`);
  return n;
}

function readBool(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  invalid(name, 'expected a boolean');
}

function readEnum<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  invalid(name, `expected one of ${allowed.join(', ')}`);
}

const FACET_ORDERS = ['count', 'alpha'] as const;

/** Values Algolia's spec lists for these settings and parameters (`SearchEnums.yml`, `IndexSettings.yml`). */
const QUERY_TYPES = ['prefixLast', 'prefixAll', 'prefixNone'] as const;
const REMOVE_WORDS = ['none', 'lastWords', 'firstWords', 'allOptional'] as const;
const EXACT_SINGLE_WORD = ['attribute', 'word', 'none'] as const;
const ENUMS: Record<string, readonly string[]> = {
  queryType: QUERY_TYPES,
  removeWordsIfNoResults: REMOVE_WORDS,
  exactOnSingleWordQuery: EXACT_SINGLE_WORD,
};
const MODES = ['keywordSearch', 'neuralSearch'] as const;
const ENUM_LISTS: Record<string, readonly string[]> = {
  advancedSyntaxFeatures: ['exactPhrase', 'excludeWords'],
  alternativesAsExact: ['ignorePlurals', 'singleWordSynonym', 'multiWordsSynonym', 'ignoreConjugations'],
};

function readEnumList(name: string, value: unknown, allowed: readonly string[]): string[] | undefined {
  const list = readList(name, value);
  const wrong = list?.find((entry) => !allowed.includes(entry));
  if (wrong !== undefined) invalid(name, `${JSON.stringify(wrong)} is none of ${allowed.join(', ')}`);
  return list;
}

function readTypoTolerance(value: unknown): QueryOptions['typoTolerance'] {
  if (value === undefined || value === null || value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  if (value === 'min' || value === 'strict') return value;
  invalid('typoTolerance', 'expected true, false, "min" or "strict"');
}

/**
 * Values checked though not read: `mode` (Algolia's NeuralSearch switch: Vitrine's hybrid search has parameters
 * of its own), `alternativesAsExact` (the engine ranks as its default says) and `advancedSyntaxFeatures`' entries
 * (only the two it lists are looked for).
 */
function checkUnread(source: Source): void {
  readEnum('mode', source.mode, MODES, 'keywordSearch');
  for (const [name, allowed] of Object.entries(ENUM_LISTS)) readEnumList(name, source[name], allowed);
}

/**
 * Refuses (`INVALID_PARAMETER`) a setting whose value is not one the spec lists. A search reads these settings:
 * stored, a wrong value would make every search of the index fail, so settings are checked before they are.
 */
export function checkSettingValues(settings: Record<string, unknown>): void {
  for (const [name, allowed] of Object.entries(ENUMS)) readEnum(name, settings[name], allowed, allowed[0]);
  checkUnread(settings);
  readTypoTolerance(settings.typoTolerance);
}

/**
 * The `sortFacetValuesBy` that applies: the search's, else the index's. An empty string is no value (the spec
 * types the parameter as any string, and Algolia's own clients send `""` with their other empty parameters).
 */
function facetOrderOf(searched: unknown, setting: unknown): unknown {
  return [searched, setting].find((value) => value !== undefined && value !== '');
}

function readString(name: string, value: unknown, fallback: string): string {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string') invalid(name, 'expected a string');
  return value;
}

function readSnippets(value: string[] | undefined): SnippetSpec[] {
  return (value ?? []).map((entry) => {
    const [attribute, count] = entry.split(':');
    const words = count === undefined ? 10 : Number(count);
    if (!Number.isInteger(words) || words < 1) invalid('attributesToSnippet', `bad word count in "${entry}"`);
    return { attribute: attribute.trim(), words };
  });
}

function readLatLng(value: unknown): [number, number] | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') invalid('aroundLatLng', 'expected "lat,lng"');
  const [lat, lng] = value.split(',').map((s) => Number(s.trim()));
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) invalid('aroundLatLng', 'expected "lat,lng"');
  return [lat, lng];
}

export function resolveOptions(params: SearchParams, settings: IndexSettings, override: IndexSettings | undefined): QueryOptions {
  if (params === null || typeof params !== 'object') invalid('params', 'expected an object');
  const index: Source = override ? { ...settings, ...override } : settings;
  const p = params as Source;
  const get = (key: string): unknown => (p[key] !== undefined ? p[key] : index[key]);
  const query = readString('query', p.query, '');
  // The index's own values were checked when they were set; values stored before that still search.
  checkUnread(p);
  const typoTolerance = readTypoTolerance(get('typoTolerance'));
  const features = readList('advancedSyntaxFeatures', get('advancedSyntaxFeatures')) ?? ['exactPhrase', 'excludeWords'];
  const optional = get('optionalWords');
  const optionalList = typeof optional === 'string' ? [optional] : (readList('optionalWords', optional) ?? []);
  const distinctValue = get('distinct');
  let distinct = 0;
  if (distinctValue === true || distinctValue === 'true') distinct = 1;
  else if (distinctValue !== undefined && distinctValue !== null && distinctValue !== false && distinctValue !== 'false') distinct = readInt('distinct', distinctValue, 0, 0, 4);
  const facets = readList('facets', p.facets) ?? [];
  const highlight = readList('attributesToHighlight', get('attributesToHighlight'));
  const precision = get('aroundPrecision');
  return {
    query,
    page: readInt('page', p.page, 0, 0, Number.MAX_SAFE_INTEGER),
    hitsPerPage: readInt('hitsPerPage', get('hitsPerPage'), 20, 0, 1000),
    offset: p.offset === undefined ? undefined : readInt('offset', p.offset, 0, 0, Number.MAX_SAFE_INTEGER),
    length: p.length === undefined ? undefined : readInt('length', p.length, 20, 0, 1000),
    paginationLimitedTo: readInt('paginationLimitedTo', index.paginationLimitedTo, 1000, 0, 20000),
    queryType: readEnum('queryType', get('queryType'), QUERY_TYPES, 'prefixLast'),
    typoTolerance,
    minWordSizefor1Typo: readInt('minWordSizefor1Typo', get('minWordSizefor1Typo'), 4, 0, 1000),
    minWordSizefor2Typos: readInt('minWordSizefor2Typos', get('minWordSizefor2Typos'), 8, 0, 1000),
    allowTyposOnNumericTokens: readBool('allowTyposOnNumericTokens', get('allowTyposOnNumericTokens'), true),
    disableTypoToleranceOnAttributes: readList('disableTypoToleranceOnAttributes', get('disableTypoToleranceOnAttributes')) ?? [],
    disableTypoToleranceOnWords: new Set((readList('disableTypoToleranceOnWords', get('disableTypoToleranceOnWords')) ?? []).map(normalizeText)),
    pluralLanguages: languagesFor(get('ignorePlurals'), get('queryLanguages'), index.indexLanguages),
    stopWordLanguages: languagesFor(get('removeStopWords'), get('queryLanguages'), index.indexLanguages),
    decompoundLanguages: readBool('decompoundQuery', get('decompoundQuery'), true) ? compoundLanguages(get('queryLanguages'), index.indexLanguages) : [],
    synonyms: readBool('synonyms', p.synonyms, true),
    removeWordsIfNoResults: readEnum('removeWordsIfNoResults', get('removeWordsIfNoResults'), REMOVE_WORDS, 'none'),
    optionalWords: new Set(optionalList.flatMap((entry) => terms(entry, readString('separatorsToIndex', index.separatorsToIndex, '')))),
    advancedSyntax: readBool('advancedSyntax', get('advancedSyntax'), false),
    exactPhrase: features.includes('exactPhrase'),
    excludeWords: features.includes('excludeWords'),
    ranking: parseRanking(index.ranking),
    customRanking: parseCustomRanking(index.customRanking),
    relevancyStrictness: index.relevancyStrictness === undefined && p.relevancyStrictness === undefined ? undefined : readInt('relevancyStrictness', get('relevancyStrictness'), 100, 0, 100),
    facets,
    maxValuesPerFacet: readInt('maxValuesPerFacet', get('maxValuesPerFacet'), 100, 0, 1000),
    sortFacetValuesBy: readEnum('sortFacetValuesBy', facetOrderOf(p.sortFacetValuesBy, index.sortFacetValuesBy), FACET_ORDERS, 'count'),
    facetingAfterDistinct: readBool('facetingAfterDistinct', get('facetingAfterDistinct'), false),
    attributesToRetrieve: readList('attributesToRetrieve', get('attributesToRetrieve')) ?? ['*'],
    unretrievableAttributes: readList('unretrievableAttributes', index.unretrievableAttributes) ?? [],
    attributesToHighlight: highlight ?? null,
    attributesToSnippet: readSnippets(readList('attributesToSnippet', get('attributesToSnippet'))),
    highlightPreTag: readString('highlightPreTag', get('highlightPreTag'), '<em>'),
    highlightPostTag: readString('highlightPostTag', get('highlightPostTag'), '</em>'),
    snippetEllipsisText: readString('snippetEllipsisText', get('snippetEllipsisText'), '…'),
    restrictSearchableAttributes: readList('restrictSearchableAttributes', p.restrictSearchableAttributes) ?? null,
    distinct,
    reRankingAsked: readBool('enableReRanking', p.enableReRanking, true),
    allowReRankingOnPersonalization: readBool('allowReRankingOnPersonalization', p.allowReRankingOnPersonalization, false),
    attributeForDistinct: typeof index.attributeForDistinct === 'string' && index.attributeForDistinct !== '' ? index.attributeForDistinct : undefined,
    getRankingInfo: readBool('getRankingInfo', p.getRankingInfo, false),
    minProximity: readInt('minProximity', get('minProximity'), 1, 1, 7),
    exactOnSingleWordQuery: readEnum('exactOnSingleWordQuery', get('exactOnSingleWordQuery'), EXACT_SINGLE_WORD, 'attribute'),
    aroundLatLng: readLatLng(p.aroundLatLng),
    aroundRadius: p.aroundRadius === 'all' ? 'all' : p.aroundRadius === undefined ? undefined : readInt('aroundRadius', p.aroundRadius, 0, 1, Number.MAX_SAFE_INTEGER),
    aroundPrecision: typeof precision === 'number' ? Math.max(1, precision) : 1,
    renderingContent: (get('renderingContent') as RenderingContent | undefined) ?? undefined,
    optionalFilters: p.optionalFilters as SearchParams['optionalFilters'],
    sumOrFiltersScores: readBool('sumOrFiltersScores', get('sumOrFiltersScores'), false),
    maxFacetHits: readInt('maxFacetHits', get('maxFacetHits'), 10, 1, 100),
    separatorsToIndex: readString('separatorsToIndex', index.separatorsToIndex, ''),
  };
}

/**
 * How many hits a search asks for: `length` when it pages by `offset`/`length`, else `hitsPerPage`. On resolved
 * options a number; on parameters as sent, whatever they hold (undefined when they leave it to the index).
 */
export function hitsAsked(p: Pick<QueryOptions, 'offset' | 'length' | 'hitsPerPage'>): number;
export function hitsAsked(p: { offset?: unknown; length?: unknown; hitsPerPage?: unknown }): unknown;
export function hitsAsked(p: { offset?: unknown; length?: unknown; hitsPerPage?: unknown }): unknown {
  return p.offset !== undefined || p.length !== undefined ? (p.length ?? p.hitsPerPage) : p.hitsPerPage;
}

/** The query's (else the index's) languages that have compounds: Algolia decompounds only those. */
function compoundLanguages(queryLanguages: unknown, indexLanguages: unknown): string[] {
  const list = Array.isArray(queryLanguages) && queryLanguages.length > 0 ? queryLanguages : Array.isArray(indexLanguages) ? indexLanguages : [];
  return list.filter((language): language is string => typeof language === 'string' && COMPOUND_LANGUAGES.has(language));
}
