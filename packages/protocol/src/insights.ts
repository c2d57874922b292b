/**
 * The Insights API (`POST /1/events`): user events (clicks, conversions, views) that feed search analytics,
 * recommendations and query suggestions. Shapes as the Insights API specifies them.
 */
import type { SearchLogEntry } from './analytics.ts';

export type InsightsEventType = 'click' | 'conversion' | 'view' | 'instantsearch';
export type InsightsEventSubtype = 'addToCart' | 'purchase';

/** Per-object details of an add-to-cart or purchase event; `queryID` links one object to the search it came from. */
export interface InsightsObjectData {
  /** Final unit price, discounts applied (a number or a numeric string). */
  price?: number | string;
  quantity?: number;
  /** Absolute discount per unit. */
  discount?: number | string;
  queryID?: string;
}

/** One event as sent in `events`. Either `objectIDs` or `filters` (URL-encoded `attribute:value`), never both. */
export interface InsightsEvent {
  eventType: InsightsEventType;
  eventSubtype?: InsightsEventSubtype;
  /** 1 to 64 printable ASCII characters. */
  eventName: string;
  /** Required for every type but `instantsearch`. */
  index?: string;
  /** `[a-zA-Z0-9_=/+-]{1,129}`. */
  userToken: string;
  authenticatedUserToken?: string;
  /** Milliseconds since the epoch; the reception time when absent. */
  timestamp?: number;
  /** 32 hexadecimal characters, from a search made with `clickAnalytics: true`. */
  queryID?: string;
  objectIDs?: string[];
  /** 1-based positions of `objectIDs` in the results (click events after a search). */
  positions?: number[];
  filters?: string[];
  objectData?: InsightsObjectData[];
  /** Total value of the event, in `currency`. */
  value?: number | string;
  /** ISO 4217 code. */
  currency?: string;
  agentID?: string;
}

export interface InsightsEventsRequest {
  events: InsightsEvent[];
}

/** Success and error bodies of the Insights API. */
export interface InsightsEventsResponse {
  status: number;
  message: string;
}

/**
 * A past activity to load into a fresh store (the demo's generated history): searches as the search routes
 * log them, and events exactly as `POST /1/events` takes them, each with its `timestamp`.
 */
export interface InsightsHistory {
  searches: SearchLogEntry[];
  events: Array<InsightsEvent & { timestamp: number }>;
}
