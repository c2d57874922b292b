/**
 * The user profiles: a SQLite file of their own beside the insights database (`insights-profiles.sqlite`),
 * written only by profile builds (`derive.ts`, in their thread), read by the main thread one user at a time
 * (a search with a `userToken`, `GET /1/profiles/personalization/{userToken}`).
 *
 * - `profiles`: per user token, the affinities (JSON, facet → value → score 1–100), the time of the user's last
 *   event counted and of the build that wrote it;
 * - `object_facets`: the strategy's facet values of each object the events named, as the index's records had
 *   them when fetched (the thread has no records: the main thread fetches them through the host, `profiles.ts`);
 * - `state`: the strategy's facets the cached values are for (other facets: the cache starts again).
 *
 * A file of its own, not tables of the models' aggregates (`insights-models.sqlite`), whose one writer is the
 * model thread: profile builds never wait for it, nor it for them. Derived from the events, so backups leave it
 * out (a restored folder builds its profiles again).
 */
import Database from 'better-sqlite3';
import type { Database as SqliteDatabase } from 'better-sqlite3';

export const PROFILES_FILE = 'insights-profiles.sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS profiles (
  user TEXT PRIMARY KEY,
  scores TEXT NOT NULL,
  last_event_at INTEGER NOT NULL,
  built_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS object_facets (
  index_name TEXT NOT NULL,
  object_id TEXT NOT NULL,
  vals TEXT NOT NULL,
  fetched_at INTEGER NOT NULL,
  PRIMARY KEY (index_name, object_id)
) WITHOUT ROWID;
`;

/** Facet values of an object: facet → values (strings); null for an object the index does not have. */
export type ObjectFacets = Record<string, string[]> | null;

export interface StoredProfile {
  scores: Record<string, Record<string, number>>;
  lastEventAt: number;
  builtAt: number;
}

/** The writer's side (the profile thread). */
export class ProfileStore {
  readonly db: SqliteDatabase;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // Derived data: a crash loses at most the last build, done again at the next start.
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(SCHEMA);
  }

  /** Keeps the cached facet values only if they are for these facets. */
  useFacets(facets: readonly string[]): void {
    const key = JSON.stringify([...facets].sort());
    const row = this.db.prepare("SELECT value FROM state WHERE key = 'facets'").pluck().get() as string | undefined;
    if (row === key) return;
    this.db.transaction(() => {
      this.db.exec('DELETE FROM object_facets');
      this.db.prepare("INSERT INTO state (key, value) VALUES ('facets', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(key);
    })();
  }

  putFacets(rows: Array<[indexName: string, objectID: string, facets: ObjectFacets]>, at: number): void {
    const put = this.db.prepare('INSERT INTO object_facets (index_name, object_id, vals, fetched_at) VALUES (?, ?, ?, ?) ON CONFLICT (index_name, object_id) DO UPDATE SET vals = excluded.vals, fetched_at = excluded.fetched_at');
    this.db.transaction(() => {
      for (const [indexName, objectID, facets] of rows) put.run(indexName, objectID, JSON.stringify(facets), at);
    })();
  }

  /** A reader of cached facet values fetched at or after `freshFrom`; undefined: none (or stale). */
  facetsReader(freshFrom: number): (indexName: string, objectID: string) => ObjectFacets | undefined {
    const get = this.db.prepare('SELECT vals FROM object_facets WHERE index_name = ? AND object_id = ? AND fetched_at >= ?').pluck();
    return (indexName, objectID) => {
      const vals = get.get(indexName, objectID, freshFrom) as string | undefined;
      return vals === undefined ? undefined : (JSON.parse(vals) as ObjectFacets);
    };
  }

  /** Replaces every profile, in one transaction: readers see the last build's or this one's. */
  replaceProfiles(profiles: Iterable<[user: string, profile: StoredProfile]>): number {
    const put = this.db.prepare('INSERT INTO profiles (user, scores, last_event_at, built_at) VALUES (?, ?, ?, ?)');
    let count = 0;
    this.db.transaction(() => {
      this.db.exec('DELETE FROM profiles');
      for (const [user, profile] of profiles) {
        put.run(user, JSON.stringify(profile.scores), profile.lastEventAt, profile.builtAt);
        count++;
      }
    })();
    return count;
  }

  close(): void {
    this.db.close();
  }
}

/** The main thread's side: one user's profile, read-only. */
export class ProfileReader {
  private readonly db: SqliteDatabase;
  private readonly get;

  constructor(file: string) {
    this.db = new Database(file, { readonly: true, fileMustExist: true });
    this.get = this.db.prepare('SELECT scores, last_event_at, built_at FROM profiles WHERE user = ?');
  }

  profile(user: string): StoredProfile | undefined {
    const row = this.get.get(user) as { scores: string; last_event_at: number; built_at: number } | undefined;
    return row === undefined ? undefined : { scores: JSON.parse(row.scores) as StoredProfile['scores'], lastEventAt: row.last_event_at, builtAt: row.built_at };
  }

  close(): void {
    this.db.close();
  }
}
