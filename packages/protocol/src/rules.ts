/**
 * Rules (merchandising): the shapes of Algolia's rule objects as `PUT /1/indexes/{index}/rules/{objectID}`,
 * `POST .../rules/batch`, `GET .../rules/{objectID}` and `POST .../rules/search` carry them.
 */
import type { SearchParams, RenderingContent } from './search-params.ts';

export type Anchoring = 'is' | 'startsWith' | 'endsWith' | 'contains';

/** When a rule triggers: a query pattern, a context, filters of the request; all given must hold. */
export interface Condition {
  /** Words to find in the query; `{facet:attribute}` stands for any value of that facet. */
  pattern?: string;
  anchoring?: Anchoring;
  /** Also match the pattern's plural forms and synonyms. */
  alternatives?: boolean;
  /** The rule triggers only when the request's `ruleContexts` holds this context. */
  context?: string;
  /** `attr:value` filters (ANDed) the request's filters must contain. */
  filters?: string;
}

/** A word edit of the query: remove `delete`, or replace it with `insert`. */
export interface Edit {
  type?: 'remove' | 'replace';
  delete?: string;
  insert?: string;
}

export interface ConsequenceQueryObject {
  /** Words to remove (older form of `edits` of type remove). */
  remove?: string[];
  edits?: Edit[];
}

/** `{facet}` placeholders of the pattern turned into filters. */
export interface AutomaticFacetFilter {
  facet: string;
  /** Score of the optional filter (automaticOptionalFacetFilters). Default 1. */
  score?: number;
  /** Several values of the facet in the query: OR them (true) or AND them (false, the default). */
  disjunctive?: boolean;
}

/** Search parameters a rule applies, plus its query rewrite and automatic facet filters. */
export interface ConsequenceParams extends Omit<SearchParams, 'query'> {
  /** The whole query replaced by a string, or edited word by word. */
  query?: string | ConsequenceQueryObject;
  automaticFacetFilters?: Array<AutomaticFacetFilter | string>;
  automaticOptionalFacetFilters?: Array<AutomaticFacetFilter | string>;
  renderingContent?: RenderingContent;
}

/** One record, or a group of records, pinned at a position of the results (0-based). */
export type Promote = { objectID: string; position: number } | { objectIDs: string[]; position: number };

export interface ConsequenceHide {
  objectID: string;
}

export interface Consequence {
  params?: ConsequenceParams;
  promote?: Promote[];
  /** Promoted records must also pass the request's filters. Default false. */
  filterPromotes?: boolean;
  hide?: ConsequenceHide[];
  /** Any JSON, appended to the response's `userData` array. */
  userData?: unknown;
}

/** Unix timestamps in seconds: the rule applies from `from` until `until`. */
export interface TimeRange {
  from?: number;
  until?: number;
}

export interface Rule {
  objectID: string;
  conditions?: Condition[];
  /** Legacy single condition (older exports). */
  condition?: Condition;
  consequence: Consequence;
  description?: string;
  enabled?: boolean;
  validity?: TimeRange[];
  tags?: string[];
  scope?: string;
}

/** `POST /1/indexes/{index}/rules/search`. */
export interface SearchRulesParams {
  query?: string;
  anchoring?: Anchoring;
  context?: string;
  page?: number;
  hitsPerPage?: number;
  enabled?: boolean | null;
}

export interface SearchRulesResponse {
  hits: Rule[];
  nbHits: number;
  page: number;
  nbPages: number;
}

/** An entry of a search response's `appliedRules`. */
export interface AppliedRule {
  objectID: string;
}
