/**
 * The rollups of the searches recorded since the search log's last write, summed as each search is recorded:
 * one row per (index, day, tags) and, under it, per query, with their hits, filter conditions, no-result filter
 * combinations and users. The search log writes them (`search-log.ts`); memory stays bounded by the distinct keys.
 */
import { createHash } from 'node:crypto';
import type { SearchLogEntry } from '@vitrine/protocol';
import { appliedFilters, dayOf, tagsKey } from './days.ts';
import { TOP_HITS_COUNTED } from './search-summary.ts';
import { addShown } from './reranking/impressions.ts';

const QUERY_ID = /^[0-9a-f]{32}$/;
const MAX_CONDITIONS_COUNTED = 50;
const MAX_USER_TOKEN_LENGTH = 129;
/**
 * Distinct users kept per query and day (`query_user_daily`): what query suggestions' `minUsers` can ask for.
 * Past it a query is popular enough; the table and the batch stay bounded however many search it.
 */
export const MAX_USERS_COUNTED = 16;
/** A country as `/2/countries` reports it: two capital letters (ISO 3166-1 alpha-2). */
const COUNTRY = /^[A-Z]{2}$/;

/**
 * Hits by objectID: how often each came, and how often in a tracked (clickAnalytics) search, in a map of its own
 * filled only by those. Plain numbers rather than an object per hit: the rows live until their batch is written,
 * and every object among them is copied by each young-generation collection of the main thread meanwhile.
 */
export class HitCounts {
  readonly counts = new Map<string, number>();
  readonly tracked = new Map<string, number>();

  add(objectID: string, tracked: number): void {
    this.counts.set(objectID, (this.counts.get(objectID) ?? 0) + 1);
    if (tracked) this.tracked.set(objectID, (this.tracked.get(objectID) ?? 0) + 1);
  }
}

export type QueryCounts = { searches: number; noResults: number; noResultsFiltered: number; tracked: number; trackedWithResults: number };

/** A tracked search: queryID, index, day, tags, query. */
export type TrackedRow = [string, string, number, string, string];

/**
 * One `query_daily` row waiting to be written, with the rows keyed under it: its hits (`hit_query_daily`, by
 * objectID), its filter conditions and its no-result filter combinations. Nested rather than keyed by strings
 * joining every key part: a search adds to a dozen rows under one query, and building and hashing a long key for
 * each took most of the time recording did.
 */
export interface QueryRow {
  query: string;
  counts: QueryCounts;
  /** Latest nbHits (the `query_daily.nb_hits` shown by top searches), with its time. */
  nbHits: number;
  nbHitsTs: number;
  hits: HitCounts;
  /** By attribute, operator and value joined by NUL. */
  filters: Map<string, { attribute: string; operator: string; value: string; count: number }>;
  combos: Map<string, number>;
  /** Who searched it (`suggestionUserOf`), up to MAX_USERS_COUNTED. */
  users: Set<string>;
  /** Tracked searches' impressions by objectID and position (`reranking/impressions.ts`). */
  shown: Map<string, number>;
}

/** The rows of one (index, day, tags): its queries and its hits (`hit_daily`, by objectID). */
export interface BaseRow {
  index: string;
  day: number;
  tags: string;
  queries: Map<string, QueryRow>;
  hits: HitCounts;
  users: Set<string>;
  /** Searches by country code (`country_daily`), for the searches that carried one. */
  countries: Map<string, number>;
}

/** The rollups of the searches recorded since the last write. */
export class Batch {
  searches = 0;
  /** By index, day and tags joined by NUL (parts containing NUL could alias: at worst odd tags merge). */
  readonly bases = new Map<string, BaseRow>();
  readonly updated = new Map<string, number>();

  /** Sums one search (`query`: its normalised query). */
  add(entry: SearchLogEntry, ts: number, query: string): void {
    this.searches++;
    const day = dayOf(ts);
    const tags = tagsKey(entry.analyticsTags);
    const index = entry.index;
    const baseId = `${index}\u0000${day}\u0000${tags}`;
    let base = this.bases.get(baseId);
    if (base === undefined) {
      base = { index, day, tags, queries: new Map(), hits: new HitCounts(), users: new Set(), countries: new Map() };
      this.bases.set(baseId, base);
    }
    let row = base.queries.get(query);
    if (row === undefined) {
      row = {
        query,
        counts: { searches: 0, noResults: 0, noResultsFiltered: 0, tracked: 0, trackedWithResults: 0 },
        nbHits: entry.nbHits,
        nbHitsTs: ts,
        hits: new HitCounts(),
        filters: new Map(),
        combos: new Map(),
        users: new Set(),
        shown: new Map(),
      };
      base.queries.set(query, row);
    } else if (ts >= row.nbHitsTs) {
      row.nbHits = entry.nbHits;
      row.nbHitsTs = ts;
    }
    const noResults = entry.nbHits === 0 ? 1 : 0;
    // A search's filters can hold thousands of conditions; the first ones tell what shoppers filter on.
    const conditions = appliedFilters(entry).slice(0, MAX_CONDITIONS_COUNTED);
    const tracked = isQueryId(entry.queryID) ? 1 : 0;
    const counts = row.counts;
    counts.searches++;
    counts.noResults += noResults;
    if (noResults && conditions.length > 0) counts.noResultsFiltered++;
    counts.tracked += tracked;
    if (tracked && !noResults) counts.trackedWithResults++;
    const objectIDs = entry.objectIDs ?? [];
    for (let i = 0; i < objectIDs.length && i < TOP_HITS_COUNTED; i++) {
      const objectID = objectIDs[i];
      if (typeof objectID !== 'string') continue;
      base.hits.add(objectID, tracked);
      row.hits.add(objectID, tracked);
    }
    if (tracked) addShown(row.shown, entry);
    for (const c of conditions) {
      const id = `${c.attribute}\u0000${c.operator}\u0000${c.value}`;
      const filter = row.filters.get(id);
      if (filter) filter.count++;
      else row.filters.set(id, { attribute: c.attribute, operator: c.operator, value: c.value, count: 1 });
    }
    if (noResults && conditions.length > 0) {
      const combo = JSON.stringify(conditions.map((c) => [c.attribute, c.operator, c.value]).sort());
      row.combos.set(combo, (row.combos.get(combo) ?? 0) + 1);
    }
    const user = userOf(entry);
    if (user) base.users.add(user);
    const searcher = suggestionUserOf(entry);
    if (searcher !== undefined && row.users.size < MAX_USERS_COUNTED) row.users.add(searcher);
    if (entry.country !== undefined && COUNTRY.test(entry.country)) base.countries.set(entry.country, (base.countries.get(entry.country) ?? 0) + 1);
    this.updated.set(index, Math.max(this.updated.get(index) ?? 0, ts));
  }
}

export function isQueryId(value: unknown): value is string {
  return typeof value === 'string' && QUERY_ID.test(value);
}

/**
 * Who made a search, as query suggestions count users: the client's address when known, else the user token
 * (a history replayed without addresses). Not the token first: a client sends any tokens it likes, and 40
 * searches with 40 tokens planted a suggestion (issue 49). Kept as a short digest: the table needs only to tell
 * users apart.
 */
export function suggestionUserOf(entry: SearchLogEntry): string | undefined {
  const token = entry.userToken !== undefined && entry.userToken.length <= MAX_USER_TOKEN_LENGTH ? entry.userToken : undefined;
  const who = entry.ip ? `ip:${entry.ip}` : token ? `token:${token}` : undefined;
  return who === undefined ? undefined : createHash('sha256').update(who).digest('base64url').slice(0, 16);
}

/**
 * Who made a search: the user token, else the IP. The header's token is not validated by the search route: an
 * oversized one counts as the IP.
 */
export function userOf(entry: SearchLogEntry): string | undefined {
  const token = entry.userToken !== undefined && entry.userToken.length <= MAX_USER_TOKEN_LENGTH ? entry.userToken : undefined;
  return token || entry.ip || undefined;
}
