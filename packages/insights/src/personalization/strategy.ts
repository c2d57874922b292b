/**
 * The personalization strategy (`/1/strategies/personalization`): which events count for a user's affinities
 * and how much (`eventsScoring`), which facets the affinities are for and how much (`facetsScoring`), and how much
 * they weigh in a search (`personalizationImpact`). Validated whole (a bad strategy changes nothing) and kept
 * in the insights database's `meta` table, committed with `synchronous = FULL` before the answer: it survives a
 * crash, and backups carry it.
 *
 * Unknown event names are allowed: a strategy may name events the shop starts sending later (as on Algolia, whose
 * strategies name events, not a registry of them). Facets must be facets of some index (the host says which:
 * `knownFacet`), since affinities for anything else could never order a search.
 */
import type { EventsScoring, FacetsScoring, PersonalizationStrategy } from '@vitrine/protocol';
import type { InsightsDb } from '../db.ts';
import { getMeta, setMeta } from '../db.ts';
import { invalidParameter, missingParameter } from '../errors.ts';

const META_KEY = 'personalization_strategy';
/** Entries per list: a strategy is a handful of events and facets (and profiles keep values per facet). */
export const MAX_SCORINGS = 15;
const EVENT_TYPES = new Set(['click', 'conversion', 'view']);
/** As the Insights API's eventName: 1–64 printable ASCII characters. */
const EVENT_NAME = /^[\x20-\x7e]{1,64}$/;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function score(value: unknown, name: string, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > 100) throw invalidParameter(name, `expected an integer from ${min} to 100`);
  return value;
}

function list(body: Record<string, unknown>, name: string): unknown[] {
  const value = body[name];
  if (value === undefined || value === null) throw missingParameter(name);
  if (!Array.isArray(value)) throw invalidParameter(name, 'expected an array');
  if (value.length > MAX_SCORINGS) throw invalidParameter(name, `at most ${MAX_SCORINGS} entries`);
  return value;
}

/** The strategy in `body`, or a 400 naming the first problem. `knownFacet`: whether some index has the facet. */
export function validateStrategy(body: unknown, knownFacet: (name: string) => boolean): PersonalizationStrategy {
  if (!isObject(body)) throw invalidParameter('body', 'expected a JSON object');
  const seenEvents = new Set<string>();
  const eventsScoring: EventsScoring[] = list(body, 'eventsScoring').map((entry, i) => {
    const at = `eventsScoring[${i}]`;
    if (!isObject(entry)) throw invalidParameter(at, 'expected an object');
    const { eventName, eventType } = entry;
    if (typeof eventName !== 'string' || !EVENT_NAME.test(eventName)) throw invalidParameter(`${at}.eventName`, 'expected 1 to 64 printable ASCII characters');
    if (typeof eventType !== 'string' || !EVENT_TYPES.has(eventType)) throw invalidParameter(`${at}.eventType`, 'expected click, conversion or view');
    const key = `${eventType}\u0000${eventName}`;
    if (seenEvents.has(key)) throw invalidParameter(`${at}`, `the ${eventType} event "${eventName}" is listed twice`);
    seenEvents.add(key);
    return { eventName, eventType: eventType as EventsScoring['eventType'], score: score(entry.score, `${at}.score`, 1) };
  });
  const seenFacets = new Set<string>();
  const facetsScoring: FacetsScoring[] = list(body, 'facetsScoring').map((entry, i) => {
    const at = `facetsScoring[${i}]`;
    if (!isObject(entry)) throw invalidParameter(at, 'expected an object');
    const { facetName } = entry;
    if (typeof facetName !== 'string' || facetName === '' || facetName.length > 256) throw invalidParameter(`${at}.facetName`, 'expected a facet name');
    if (seenFacets.has(facetName)) throw invalidParameter(at, `the facet "${facetName}" is listed twice`);
    if (!knownFacet(facetName)) throw invalidParameter(`${at}.facetName`, `"${facetName}" is not in the attributesForFaceting of any index`);
    seenFacets.add(facetName);
    return { facetName, score: score(entry.score, `${at}.score`, 1) };
  });
  if (body.personalizationImpact === undefined || body.personalizationImpact === null) throw missingParameter('personalizationImpact');
  const personalizationImpact = score(body.personalizationImpact, 'personalizationImpact', 0);
  return { eventsScoring, facetsScoring, personalizationImpact };
}

export function loadStrategy(db: InsightsDb): PersonalizationStrategy | null {
  const stored = getMeta(db, META_KEY);
  return stored === undefined ? null : (JSON.parse(stored) as PersonalizationStrategy);
}

/** Committed (the database's `synchronous = FULL`) when it returns. */
export function saveStrategy(db: InsightsDb, strategy: PersonalizationStrategy): void {
  setMeta(db, META_KEY, JSON.stringify(strategy));
}
