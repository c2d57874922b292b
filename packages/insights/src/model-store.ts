/**
 * The models' aggregates: a SQLite file of their own beside the insights database (`insights-models.sqlite`),
 * written only by model builds (in the model thread, or `importHistory`'s build on the main thread).
 *
 * - `user_days`: one `GroupState` (JSON, `model-groups.ts`) per UTC day, index and user, keyed in that order:
 *   the days that leave the window are deleted as one range, and the models are derived reading the rest in key
 *   order (the same order whatever order they were written in).
 * - `state`: what the aggregates count, committed in the same transaction as every change to them: the last
 *   event id read (`readTo`), the last change of the insights database's `model_changes` taken into account
 *   (`changesTo`), the first day held, the event log they count (its epoch), the fold's settings, and where a
 *   build from scratch is (`fill`).
 *
 * A file of its own, not tables of `insights.sqlite`: a build writes for seconds when it starts from scratch,
 * and a writer of the insights database holds its one write lock, for which the main thread's event commits
 * would wait, the event loop blocked. The aggregates can always be rebuilt from the events, so backups leave
 * the file out (a restored folder builds from scratch once).
 */
import Database from 'better-sqlite3';
import type { InsightsDb } from './db.ts';

export const MODELS_FILE = 'insights-models.sqlite';
/** The layout of this file: another one is built again from scratch. */
const VERSION = '1';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS user_days (
  day INTEGER NOT NULL,
  index_name TEXT NOT NULL,
  user TEXT NOT NULL,
  state TEXT NOT NULL,
  PRIMARY KEY (day, index_name, user)
) WITHOUT ROWID;
`;

export interface AggregatesState {
  epoch: string;
  fold: string;
  readTo: number;
  changesTo: number;
  firstDay: number;
  /**
   * A build from scratch under way (`model-update.ts`): the events up to id `to` are read in time order, the
   * last read being (`ts`, `id`); '' once done.
   */
  fill: string;
}

export class ModelStore {
  readonly db: InsightsDb;
  private readonly getGroup;
  private readonly putGroup;
  private readonly deleteGroup;

  constructor(file: string) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // A crash loses at most the last transactions, whole: the state they carry goes with them, and the build
    // that wrote them is done again.
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(SCHEMA);
    this.getGroup = this.db.prepare('SELECT state FROM user_days WHERE day = ? AND index_name = ? AND user = ?').pluck();
    this.putGroup = this.db.prepare('INSERT INTO user_days (day, index_name, user, state) VALUES (?, ?, ?, ?) ON CONFLICT (day, index_name, user) DO UPDATE SET state = excluded.state');
    this.deleteGroup = this.db.prepare('DELETE FROM user_days WHERE day = ? AND index_name = ? AND user = ?');
  }

  state(): AggregatesState | undefined {
    const rows = this.db.prepare('SELECT key, value FROM state').all() as Array<{ key: string; value: string }>;
    const values = new Map(rows.map((row) => [row.key, row.value]));
    if (values.get('version') !== VERSION) return undefined;
    return {
      epoch: values.get('epoch') ?? '',
      fold: values.get('fold') ?? '',
      readTo: Number(values.get('readTo')),
      changesTo: Number(values.get('changesTo')),
      firstDay: Number(values.get('firstDay')),
      fill: values.get('fill') ?? '',
    };
  }

  setState(state: AggregatesState): void {
    const put = this.db.prepare('INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    put.run('version', VERSION);
    for (const [key, value] of Object.entries(state)) put.run(key, String(value));
  }

  /** Every group goes (a build from scratch). */
  clear(): void {
    this.db.exec('DROP TABLE user_days');
    this.db.exec(SCHEMA);
  }

  /** Days before `day` leave the window. */
  dropBefore(day: number): void {
    this.db.prepare('DELETE FROM user_days WHERE day < ?').run(day);
  }

  group(day: number, indexName: string, user: string): string | undefined {
    return this.getGroup.get(day, indexName, user) as string | undefined;
  }

  putGroupState(day: number, indexName: string, user: string, state: string): void {
    this.putGroup.run(day, indexName, user, state);
  }

  removeGroup(day: number, indexName: string, user: string): void {
    this.deleteGroup.run(day, indexName, user);
  }

  /** The groups from `fromDay` on, in key order (day, index, user). */
  groups(fromDay: number): IterableIterator<{ day: number; index_name: string; state: string }> {
    return this.db.prepare('SELECT day, index_name, state FROM user_days WHERE day >= ? ORDER BY day, index_name, user').iterate(fromDay) as IterableIterator<{ day: number; index_name: string; state: string }>;
  }

  close(): void {
    this.db.close();
  }
}
