/**
 * The Personalization API (`/1/strategies/personalization`, `/1/profiles/...`), as the `algoliasearch` v5
 * personalization client sends and reads it, and what a personalized search hands the engine.
 */

export type PersonalizationEventType = 'click' | 'conversion' | 'view';

/** Events of this name and type count for a user's affinities, weighed by `score` (1–100). */
export interface EventsScoring {
  eventName: string;
  eventType: PersonalizationEventType;
  score: number;
}

/** The values of this facet are what affinities are for, weighed by `score` (1–100). */
export interface FacetsScoring {
  facetName: string;
  score: number;
}

/** `GET` / `POST /1/strategies/personalization`. */
export interface PersonalizationStrategy {
  eventsScoring: EventsScoring[];
  facetsScoring: FacetsScoring[];
  /** 0–100: how much the affinities weigh in a search's ranking (0: not at all). */
  personalizationImpact: number;
}

export interface SetPersonalizationStrategyResponse {
  message: string;
}

/** `GET /1/profiles/personalization/{userToken}`: the user's affinities, facet → value → score (1–100). */
export interface UserProfile {
  userToken: string;
  /** RFC 3339: the user's last event the profile counts. */
  lastEventAt: string;
  scores: Record<string, Record<string, number>>;
}

/** `DELETE /1/profiles/{userToken}`: events received after `deletedUntil` start a new profile. */
export interface DeleteUserProfileResponse {
  userToken: string;
  deletedUntil: string;
}

/**
 * What the server hands the engine for one personalized search: the user's affinities (facet, value, score
 * 1–100) and the strategy's impact. Small (a profile keeps at most a few dozen values), so it travels to the
 * search thread with the query.
 */
export interface SearchPersonalization {
  affinities: Array<[facet: string, value: string, score: number]>;
  impact: number;
}

/** `_rankingInfo.personalization` of a personalized hit. */
export interface PersonalizationRankingInfo {
  /** Always 0: affinities never act as filters here (Algolia's own filters-based share). */
  filtersScore: number;
  /** The hit's key in the personalization criterion: `score` in steps of `101 - impact`. */
  rankingScore: number;
  /** The sum of the user's scores for the facet values the hit has. */
  score: number;
}
