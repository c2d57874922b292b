/**
 * Validation of `POST /1/events` bodies, as the Insights API specifies it: every event must be valid or the
 * whole batch is refused (422) and nothing is stored. Valid events are normalised into `StoredEvent`s (numeric
 * strings parsed, filters URL-decoded, the timestamp filled in).
 */
import type { InsightsEventSubtype, InsightsEventType } from '@vitrine/protocol';
import { invalidEvents } from './errors.ts';
import { parseEventFilter } from './event-filters.ts';

export const MAX_EVENTS_PER_REQUEST = 1000;
export const MAX_EVENTS_BODY_BYTES = 2 * 1024 * 1024;
const MAX_ITEMS = 20;
const EVENT_TYPES = new Set(['click', 'conversion', 'view', 'instantsearch']);
const SUBTYPES = new Set(['addToCart', 'purchase']);
const USER_TOKEN = /^[a-zA-Z0-9_=/+-]{1,129}$/;
const EVENT_NAME = /^[\x20-\x7E]{1,64}$/;
const QUERY_ID = /^[0-9a-f]{32}$/;
const CURRENCY = /^[A-Za-z]{3}$/;
const NUMERIC_STRING = /^-?\d+(\.\d+)?$/;

export interface StoredObjectData {
  price?: number;
  quantity?: number;
  discount?: number;
  queryID?: string;
}

export interface StoredEvent {
  ts: number;
  index: string | null;
  type: InsightsEventType;
  subtype: InsightsEventSubtype | null;
  name: string;
  userToken: string;
  authToken: string | null;
  queryID: string | null;
  objectIDs: string[] | null;
  positions: number[] | null;
  /** Decoded filters: `attribute:value`, or numeric as RatingMenu sends them (`rating>=4`). */
  filters: string[] | null;
  objectData: StoredObjectData[] | null;
  value: number | null;
  currency: string | null;
}

export interface TimeWindow {
  now: number;
  maxAgeMs: number;
  maxFutureMs: number;
}

type Fields = Record<string, unknown>;

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

class EventProblem extends Error {}
const fail = (message: string): never => {
  throw new EventProblem(message);
};
const wrongType = (field: string, expected: string, value: unknown): never =>
  fail(`${field} must be ${expected}, got ${typeName(value)}`);

function optionalString(event: Fields, field: string): string | undefined {
  const value = event[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') wrongType(field, 'a string', value);
  return value as string;
}

function stringList(event: Fields, field: string): string[] | undefined {
  const value = event[field];
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return wrongType(field, 'an array of strings', value);
  if (value.length === 0 || value.length > MAX_ITEMS) fail(`${field} must hold 1 to ${MAX_ITEMS} items, got ${value.length}`);
  value.forEach((item, i) => {
    if (typeof item !== 'string') wrongType(`${field}[${i}]`, 'a string', item);
    if (item === '') fail(`${field}[${i}] must not be empty`);
  });
  return value as string[];
}

/** A price, discount or value: a number or a numeric string of at most 16 characters. */
function amount(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.length <= 16 && NUMERIC_STRING.test(value)) return Number(value);
  return fail(`${field} must be a number or a numeric string`);
}

function decodeFilter(filter: string, field: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(filter);
  } catch {
    return fail(`${field} must be URL-encoded`);
  }
  if (!parseEventFilter(decoded)) fail(`${field} must be a facet filter (attribute:value) or a numeric filter (attribute>=4; operators <, <=, =, !=, >=, >)`);
  return decoded;
}

function objectDataList(event: Fields, objectIDs: string[] | undefined): StoredObjectData[] | undefined {
  const value = event.objectData;
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) return wrongType('objectData', 'an array of objects', value);
  if (!objectIDs) fail('objectData needs objectIDs');
  if (value.length !== objectIDs!.length) fail(`objectData must have one entry per objectID (${objectIDs!.length}), got ${value.length}`);
  return value.map((item: unknown, i) => {
    const field = `objectData[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return wrongType(field, 'an object', item);
    const data = item as Fields;
    for (const key of Object.keys(data)) {
      if (!['price', 'quantity', 'discount', 'queryID'].includes(key)) fail(`${field} has an unknown field "${key}"`);
    }
    const out: StoredObjectData = {};
    const price = amount(data.price, `${field}.price`);
    if (price !== undefined) out.price = price;
    const discount = amount(data.discount, `${field}.discount`);
    if (discount !== undefined) out.discount = discount;
    if (data.quantity !== undefined) {
      if (typeof data.quantity !== 'number' || !Number.isInteger(data.quantity)) wrongType(`${field}.quantity`, 'an integer', data.quantity);
      out.quantity = data.quantity as number;
    }
    if (data.queryID !== undefined) {
      if (typeof data.queryID !== 'string' || !QUERY_ID.test(data.queryID)) fail(`${field}.queryID must be 32 hexadecimal characters`);
      out.queryID = data.queryID as string;
    }
    return out;
  });
}

function validateOne(raw: unknown, window: TimeWindow): StoredEvent {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return wrongType('the event', 'an object', raw);
  const event = raw as Fields;
  if (event.eventType === undefined) fail('eventType is required');
  if (typeof event.eventType !== 'string' || !EVENT_TYPES.has(event.eventType)) fail('eventType must be click, conversion, view or instantsearch');
  const type = event.eventType as InsightsEventType;
  if (event.eventName === undefined) fail('eventName is required');
  if (typeof event.eventName !== 'string' || !EVENT_NAME.test(event.eventName)) fail('eventName must be 1 to 64 printable ASCII characters');
  if (event.userToken === undefined) fail('userToken is required');
  if (typeof event.userToken !== 'string' || !USER_TOKEN.test(event.userToken)) fail('userToken must be 1 to 129 characters among letters, digits and _ = / + -');
  const authToken = optionalString(event, 'authenticatedUserToken');
  if (authToken !== undefined && !USER_TOKEN.test(authToken)) fail('authenticatedUserToken must be 1 to 129 characters among letters, digits and _ = / + -');

  let ts = window.now;
  if (event.timestamp !== undefined) {
    if (typeof event.timestamp !== 'number' || !Number.isInteger(event.timestamp) || event.timestamp < 0) fail('timestamp must be a positive integer (milliseconds since the epoch)');
    ts = event.timestamp as number;
    if (ts < window.now - window.maxAgeMs) fail(`timestamp is too far in the past (at most ${Math.round(window.maxAgeMs / 86_400_000)} days)`);
    if (ts > window.now + window.maxFutureMs) fail(`timestamp is too far in the future (at most ${Math.round(window.maxFutureMs / 3_600_000)} hours ahead)`);
  }

  const base = { ts, type, name: event.eventName as string, userToken: event.userToken as string, authToken: authToken ?? null };
  if (type === 'instantsearch') {
    return { ...base, index: null, subtype: null, queryID: null, objectIDs: null, positions: null, filters: null, objectData: null, value: null, currency: null };
  }

  if (event.index === undefined) fail('index is required');
  if (typeof event.index !== 'string' || event.index === '') fail('index must be a non-empty string');
  const objectIDs = stringList(event, 'objectIDs');
  const rawFilters = stringList(event, 'filters');
  if (!objectIDs && !rawFilters) fail('the event needs objectIDs or filters');
  if (objectIDs && rawFilters) fail('the event takes objectIDs or filters, not both');
  const filters = rawFilters?.map((filter, i) => decodeFilter(filter, `filters[${i}]`));

  const queryID = optionalString(event, 'queryID');
  if (queryID !== undefined && !QUERY_ID.test(queryID)) fail('queryID must be 32 hexadecimal characters (from a search with clickAnalytics)');

  let positions: number[] | undefined;
  if (event.positions !== undefined) {
    if (type !== 'click') fail('only click events take positions');
    if (!Array.isArray(event.positions)) wrongType('positions', 'an array of integers', event.positions);
    positions = event.positions as number[];
    if (!positions.every((p) => Number.isInteger(p) && p >= 1)) fail('positions must be integers from 1');
    if (queryID === undefined) fail('click events with positions need the queryID of the search');
    if (!objectIDs || positions.length !== objectIDs.length) fail('positions must have one entry per objectID');
  } else if (type === 'click' && queryID !== undefined && objectIDs) {
    fail('click events after a search (with queryID and objectIDs) need positions');
  }

  let subtype: InsightsEventSubtype | null = null;
  if (event.eventSubtype !== undefined) {
    if (type !== 'conversion') fail('only conversion events take an eventSubtype');
    if (typeof event.eventSubtype !== 'string' || !SUBTYPES.has(event.eventSubtype)) fail('eventSubtype must be addToCart or purchase');
    subtype = event.eventSubtype as InsightsEventSubtype;
  }
  const objectData = objectDataList(event, objectIDs);
  if (objectData && subtype === null) fail('objectData is only for addToCart and purchase events');
  const value = amount(event.value, 'value');
  if (value !== undefined && subtype === null) fail('value is only for addToCart and purchase events');
  const currency = optionalString(event, 'currency');
  if (currency !== undefined && !CURRENCY.test(currency)) fail('currency must be a three-letter ISO 4217 code');
  const hasPrice = objectData?.some((data) => data.price !== undefined) ?? false;
  if ((value !== undefined || hasPrice) && currency === undefined) fail('currency is required with value or objectData prices');

  return {
    ...base,
    index: event.index as string,
    subtype,
    queryID: queryID ?? null,
    objectIDs: objectIDs ?? null,
    positions: positions ?? null,
    filters: filters ?? null,
    objectData: objectData ?? null,
    value: value ?? null,
    currency: currency?.toUpperCase() ?? null,
  };
}

/** A request body's events, not yet validated one by one; throws a 422 when the body is not a batch. */
export function batchOf(body: unknown): unknown[] {
  if (Array.isArray(body)) throw invalidEvents('Expected an object with an "events" array, got an array');
  if (typeof body !== 'object' || body === null) throw invalidEvents('Expected an object with an "events" array');
  const events = (body as Fields).events;
  if (events === undefined) throw invalidEvents('Missing "events": no events to process');
  if (!Array.isArray(events)) throw invalidEvents(`"events" must be an array, got ${typeName(events)}`);
  if (events.length === 0) throw invalidEvents('No events to process');
  if (events.length > MAX_EVENTS_PER_REQUEST) throw invalidEvents(`At most ${MAX_EVENTS_PER_REQUEST} events per request, got ${events.length}`);
  return events;
}

/** The batch's event at `position`; throws a 422 naming it. */
export function validateEvent(event: unknown, position: number, window: TimeWindow): StoredEvent {
  try {
    return validateOne(event, window);
  } catch (error) {
    if (error instanceof EventProblem) throw invalidEvents(`Invalid event at position ${position}: ${error.message}`);
    throw error;
  }
}

/** Validates a whole request body; throws a 422 naming the first invalid event. */
export function validateEvents(body: unknown, window: TimeWindow): StoredEvent[] {
  return batchOf(body).map((event, i) => validateEvent(event, i, window));
}
