/**
 * Personalization on the main thread: the strategy (kept in the insights database: `strategy.ts`), the
 * profile builds that follow each model build (`profile-builder.ts`, fetching the facet values of the objects
 * the events named through the host's `getObjects`), and one user's profile, read from the profiles file
 * (`profile-store.ts`), for the API and for searches (`searchInput`: a small object that travels with the
 * query to the search thread).
 *
 * Deleting a profile (`DELETE /1/profiles/{userToken}`, `DELETE /1/usertokens/{userToken}`) deletes the user's
 * events (the caller's part) and hides the profile at once: a deletion is kept in the insights database
 * (`profile_deletions`), so a profile built before it is never read again, even after a restart, until a build
 * that started after it has replaced the profiles (which no longer count the events).
 */
import { existsSync } from 'node:fs';
import type { DeleteUserProfileResponse, PersonalizationStrategy, SearchPersonalization, UserProfile } from '@vitrine/protocol';
import type { InsightsDb } from '../db.ts';
import { attributeValue } from '../deps.ts';
import type { InsightsOptions } from '../deps.ts';
import { InsightsError } from '../errors.ts';
import { keptFromDay } from '../model-changes.ts';
import type { ProfileBuildRequest } from './derive.ts';
import { ProfileBuilder } from './profile-builder.ts';
import { ProfileReader } from './profile-store.ts';
import type { ObjectFacets, StoredProfile } from './profile-store.ts';
import { loadStrategy, saveStrategy, validateStrategy } from './strategy.ts';

/** Records asked of the host per call while fetching facet values. */
const FETCH_CHUNK = 500;
/** Profiles kept parsed in memory (a search looks one up; most come from a few active shoppers). */
const CACHED_PROFILES = 10_000;

export interface ProfilesReport {
  /** Profiles written by the last build, and its time (ms, both passes' threads). */
  profiles: number;
  ms: number;
  /** Objects whose facet values the build fetched. */
  fetched: number;
}

export interface PersonalizationHost {
  getObjects(indexName: string, objectIDs: readonly string[]): Promise<Array<Record<string, unknown> | null>> | Array<Record<string, unknown> | null>;
  now(): number;
}

export function notFound(message: string): InsightsError {
  return new InsightsError('NOT_FOUND', 404, message);
}

export class Personalization {
  private current: PersonalizationStrategy | null;
  private readonly builder: ProfileBuilder;
  private reader: ProfileReader | null = null;
  private readonly cache = new Map<string, StoredProfile | null>();
  private readonly deletions = new Map<string, number>();
  private lastReport: ProfilesReport = { profiles: 0, ms: 0, fetched: 0 };

  constructor(
    private readonly db: InsightsDb,
    private readonly files: { modelsFile: string; profilesFile: string },
    private readonly options: InsightsOptions,
    private readonly host: PersonalizationHost,
  ) {
    db.exec('CREATE TABLE IF NOT EXISTS profile_deletions (user TEXT PRIMARY KEY, at INTEGER NOT NULL) WITHOUT ROWID');
    for (const row of db.prepare('SELECT user, at FROM profile_deletions').all() as Array<{ user: string; at: number }>) this.deletions.set(row.user, row.at);
    this.current = loadStrategy(db);
    this.builder = new ProfileBuilder(files);
    // The last run's profiles serve at once after a restart, until the first build replaces them.
    if (existsSync(files.profilesFile)) this.reader = openReader(files.profilesFile);
  }

  strategy(): PersonalizationStrategy {
    if (this.current === null) throw notFound('No personalization strategy is set');
    return this.current;
  }

  /** Validates and stores a strategy (durably, before returning); the profiles follow at the next build. */
  setStrategy(body: unknown, knownFacet: (name: string) => boolean): void {
    const strategy = validateStrategy(body, knownFacet);
    saveStrategy(this.db, strategy);
    this.current = strategy;
  }

  get report(): ProfilesReport {
    return this.lastReport;
  }

  /**
   * Builds every profile from the aggregates the model build begun at `now` left (none without a strategy).
   * The profiles are dated `now`: a profile deleted after the model build began stays hidden, since that build
   * may have counted the user's events before they were deleted.
   */
  async build(now: number): Promise<ProfilesReport> {
    const strategy = this.current;
    if (strategy === null || !existsSync(this.files.modelsFile)) return this.lastReport;
    const request: ProfileBuildRequest = { now, strategy, fromDay: keptFromDay(now, this.options), final: false };
    let reply = await this.builder.pass(request);
    let ms = reply.ms;
    let fetched = 0;
    if (reply.missing) {
      const facets = await this.fetchFacets(reply.missing, strategy);
      fetched = facets.length;
      reply = await this.builder.pass({ ...request, facets, final: true });
      ms += reply.ms;
    }
    this.reader ??= openReader(this.files.profilesFile);
    this.cache.clear();
    // Deletions made before this build began are reflected in its profiles: the marks are no longer needed.
    this.db.prepare('DELETE FROM profile_deletions WHERE at < ?').run(now);
    for (const [user, at] of this.deletions) if (at < now) this.deletions.delete(user);
    this.lastReport = { profiles: reply.profiles, ms, fetched };
    return this.lastReport;
  }

  private async fetchFacets(missing: Array<[string, string]>, strategy: PersonalizationStrategy): Promise<Array<[string, string, ObjectFacets]>> {
    const byIndex = new Map<string, string[]>();
    for (const [indexName, objectID] of missing) {
      let ids = byIndex.get(indexName);
      if (!ids) byIndex.set(indexName, (ids = []));
      ids.push(objectID);
    }
    const out: Array<[string, string, ObjectFacets]> = [];
    for (const [indexName, ids] of byIndex) {
      for (let i = 0; i < ids.length; i += FETCH_CHUNK) {
        const chunk = ids.slice(i, i + FETCH_CHUNK);
        const records = await this.host.getObjects(indexName, chunk);
        chunk.forEach((objectID, k) => out.push([indexName, objectID, facetValues(records[k], strategy)]));
      }
    }
    return out;
  }

  private stored(userToken: string): StoredProfile | null {
    if (this.reader === null) return null;
    let profile = this.cache.get(userToken);
    if (profile === undefined) {
      profile = this.reader.profile(userToken) ?? null;
      if (this.cache.size >= CACHED_PROFILES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(userToken, profile);
    }
    const deletedAt = this.deletions.get(userToken);
    return profile !== null && deletedAt !== undefined && profile.builtAt <= deletedAt ? null : profile;
  }

  /** `GET /1/profiles/personalization/{userToken}`. */
  profile(userToken: string): UserProfile {
    const profile = this.stored(userToken);
    if (profile === null) throw notFound('User profile not found');
    return { userToken, lastEventAt: new Date(profile.lastEventAt).toISOString(), scores: profile.scores };
  }

  /** Hides the user's profile from now on (the caller deletes the user's events). */
  forget(userToken: string): DeleteUserProfileResponse {
    const at = this.host.now();
    this.db.prepare('INSERT INTO profile_deletions (user, at) VALUES (?, ?) ON CONFLICT (user) DO UPDATE SET at = excluded.at').run(userToken, at);
    this.deletions.set(userToken, at);
    this.cache.delete(userToken);
    return { userToken, deletedUntil: new Date(at).toISOString() };
  }

  /** What a search by `userToken` hands the engine; undefined without a strategy or a profile. */
  searchInput(userToken: string | undefined): SearchPersonalization | undefined {
    // The strategy's impact may be 0 and a search's `personalizationImpact` above it: the engine decides.
    if (userToken === undefined || this.current === null) return undefined;
    const profile = this.stored(userToken);
    if (profile === null) return undefined;
    const affinities: SearchPersonalization['affinities'] = [];
    for (const [facet, values] of Object.entries(profile.scores)) for (const [value, score] of Object.entries(values)) affinities.push([facet, value, score]);
    return { affinities, impact: this.current.personalizationImpact };
  }

  async stop(): Promise<void> {
    await this.builder.stop();
  }

  close(): void {
    void this.builder.stop();
    this.reader?.close();
    this.reader = null;
  }
}

/** A reader of the profiles file, or null when it cannot be read (the next build writes it again). */
function openReader(file: string): ProfileReader | null {
  try {
    return new ProfileReader(file);
  } catch {
    return null;
  }
}

/** The strategy's facet values of a record (strings; numbers and booleans as text); null for a missing record. */
export function facetValues(record: Record<string, unknown> | null | undefined, strategy: PersonalizationStrategy): ObjectFacets {
  if (!record) return null;
  const out: Record<string, string[]> = {};
  for (const { facetName } of strategy.facetsScoring) {
    const raw = attributeValue(record, facetName);
    const values = (Array.isArray(raw) ? raw : [raw]).filter((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean').map(String);
    if (values.length > 0) out[facetName] = values;
  }
  return out;
}
