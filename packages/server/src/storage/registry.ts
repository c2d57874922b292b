/**
 * The in-memory state of every index: settings as set, synonyms, rules, timestamps, and one engine per index that owns
 * records. Replicas (standard and virtual) own no engine: they search their primary's records with their own
 * settings through `search(params, settingsOverride)`, so a replica never holds a copy of the records.
 * The application's dictionaries live here too: every engine the registry holds is given them.
 */
import { Dictionaries, SearchIndex } from '@vitrine/engine';
import type { RecordsStamp } from '@vitrine/engine';
import type { DictionaryState } from '@vitrine/engine';
import type { IndexRecord, IndexSettings, Rule, SynonymHit } from '@vitrine/protocol';
import { RecommendRuleSets } from './recommend-rules.ts';

export interface IndexEntry {
  name: string;
  createdAt: string;
  updatedAt: string;
  /** Settings as set (explicit keys only), including `replicas` on a primary and `primary` on a replica. */
  settings: IndexSettings;
  synonyms: Map<string, SynonymHit>;
  /** Rules by objectID (a replica's searches apply its primary's: see docs/COMPATIBILITY.md). */
  rules: Map<string, Rule>;
  /** Records and derived structures; undefined on replicas. */
  engine: SearchIndex | undefined;
  /** A virtual replica (`virtual(name)` in its primary's `replicas`). */
  virtual: boolean;
}

/** Settings the engine never sees: they describe relations between indexes, which the server owns. */
const SERVER_ONLY_SETTINGS = new Set(['replicas', 'primary']);

export function engineSettings(settings: IndexSettings): IndexSettings {
  const out: IndexSettings = {};
  for (const [key, value] of Object.entries(settings)) if (!SERVER_ONLY_SETTINGS.has(key)) out[key] = value;
  return out;
}

/** `virtual(name)` → { name, virtual: true }; anything else is a standard replica's name. */
export function parseReplicaName(raw: string): { name: string; virtual: boolean } {
  const match = /^virtual\((.+)\)$/.exec(raw.trim());
  return match ? { name: match[1].trim(), virtual: true } : { name: raw.trim(), virtual: false };
}

/** An operation applied in steps, half done between them (`OpInProgress`). */
export interface PendingWrite {
  /** True when reading this index now would see the operation half applied. */
  touches(indexName: string): boolean;
  /** Applies the rest of it, at once. */
  finish(): void;
  /** The records stamp `engine` had before the operation began, if it writes it. */
  stampBefore(engine: SearchIndex): RecordsStamp | undefined;
}

export class IndexRegistry {
  private readonly entries = new Map<string, IndexEntry>();
  private current = new Dictionaries();
  /** Recommend rules, by index name and model: kept apart from the indexes (see `recommend-rules.ts`). */
  readonly recommendRules = new RecommendRuleSets();
  /** The operation being applied in steps, if any: reading an index it writes finishes it first. */
  pendingWrite: PendingWrite | null = null;
  /**
   * False on the main thread of a server with search threads, which hold the only copy of the records: record
   * writes then leave this registry's engines empty (they still check settings, filters and records written to
   * them by validation), and nothing here may read records or write engine files (`dropRecords`).
   */
  private holdsRecords = true;
  private reportedCounts = new Map<string, number>();

  get recordsHere(): boolean {
    return this.holdsRecords;
  }

  /**
   * From now on records are not kept here: every engine is replaced by an empty one with the same settings,
   * synonyms and rules (its memory freed at the next garbage collection), and record writes are not applied.
   */
  dropRecords(): void {
    this.holdsRecords = false;
    this.finishPendingWrite();
    for (const entry of this.entries.values()) {
      if (entry.engine === undefined) continue;
      entry.engine = this.emptyEngine(entry);
    }
  }

  /** An engine without records for `entry`: its settings, synonyms, rules and the application's dictionaries. */
  emptyEngine(entry: Pick<IndexEntry, 'settings' | 'synonyms' | 'rules'>): SearchIndex {
    const engine = new SearchIndex(engineSettings(entry.settings));
    engine.setSynonyms([...entry.synonyms.values()]);
    engine.setRules([...entry.rules.values()]);
    engine.setDictionaries(this.current);
    return engine;
  }

  /** Stop words, plurals and compounds of the application (`/1/dictionaries`), shared by every index. */
  get dictionaries(): Dictionaries {
    return this.current;
  }

  /** Replaces the dictionaries and hands them to every engine (which drops the caches built on the old ones). */
  setDictionaryState(state: DictionaryState): void {
    this.current = new Dictionaries(state);
    for (const entry of this.entries.values()) entry.engine?.setDictionaries(this.current);
  }

  /** The index, whole: a write being applied in steps to it (or to its primary) is finished first. */
  get(name: string): IndexEntry | undefined {
    if (this.pendingWrite?.touches(name)) this.pendingWrite.finish();
    return this.entries.get(name);
  }
  /**
   * The index as it stands, for its settings and relations only (which a batch, the only write applied in
   * steps, never changes): what checking a write needs, without finishing the import under way.
   */
  peek(name: string): IndexEntry | undefined {
    return this.entries.get(name);
  }
  has(name: string): boolean {
    return this.entries.has(name);
  }
  /** Every index, whole (see `get`). */
  all(): IndexEntry[] {
    this.finishPendingWrite();
    return [...this.entries.values()];
  }
  finishPendingWrite(): void {
    this.pendingWrite?.finish();
  }
  /**
   * Each engine's records stamp as of the last operation applied whole (for an engine a batch being applied in
   * steps writes, from before that batch), by index name: a snapshot at this position holds those records.
   */
  recordStamps(): Map<string, { engine: SearchIndex; stamp: RecordsStamp }> {
    const stamps = new Map<string, { engine: SearchIndex; stamp: RecordsStamp }>();
    for (const entry of this.entries.values()) {
      if (entry.engine === undefined) continue;
      stamps.set(entry.name, { engine: entry.engine, stamp: this.pendingWrite?.stampBefore(entry.engine) ?? entry.engine.recordsStamp() });
    }
    return stamps;
  }
  set(entry: IndexEntry): void {
    entry.engine?.setDictionaries(this.current);
    this.entries.set(entry.name, entry);
  }
  delete(name: string): void {
    this.entries.delete(name);
  }

  /** The entry, created empty (a standalone index with default settings) when missing. */
  ensure(name: string, at: string): IndexEntry {
    let entry = this.entries.get(name);
    if (!entry) {
      entry = { name, createdAt: at, updatedAt: at, settings: {}, synonyms: new Map(), rules: new Map(), engine: new SearchIndex(), virtual: false };
      entry.engine!.setDictionaries(this.current);
      this.entries.set(name, entry);
    }
    return entry;
  }

  /** The primary of a replica, or undefined for an index that owns its records. */
  primaryOf(entry: IndexEntry): IndexEntry | undefined {
    return typeof entry.settings.primary === 'string' ? this.entries.get(entry.settings.primary) : undefined;
  }

  /** The engine holding this index's records (the primary's for a replica). */
  engineOf(entry: IndexEntry): SearchIndex {
    if (entry.engine) return entry.engine;
    const primary = this.primaryOf(entry);
    if (primary?.engine) return primary.engine;
    // A replica whose primary vanished is detached on primary deletion, so this is a bug, not a caller mistake.
    throw new Error(`index ${entry.name} has no records owner`);
  }

  /**
   * The settings override a search on this index passes to the engine: undefined for an index owning its
   * engine (the engine has its settings), the primary's settings overlaid with the replica's own for a replica.
   */
  searchSettingsOf(entry: IndexEntry): IndexSettings | undefined {
    if (entry.engine) return undefined;
    const primary = this.primaryOf(entry);
    return { ...engineSettings(primary?.settings ?? {}), ...engineSettings(entry.settings) };
  }

  /** Settings as `GET …/settings` shows them (explicit keys, plus `primary`/`replicas` relations). */
  settingsOf(entry: IndexEntry): IndexSettings {
    return { ...entry.settings };
  }

  recordsOf(entry: IndexEntry): IterableIterator<IndexRecord> {
    return this.engineOf(entry).records();
  }

  /**
   * Number of records the index exposes (the primary's for a replica). Without records here, as the search
   * threads last reported it (`noteRecordCounts`): what a snapshot's budget weighs operations with.
   */
  sizeOf(entry: IndexEntry): number {
    if (this.holdsRecords) return this.engineOf(entry).size;
    return this.reportedCounts.get(entry.engine ? entry.name : String(entry.settings.primary)) ?? 0;
  }

  /** Record counts by index, as a replica holding the records reports them after applying operations. */
  noteRecordCounts(counts: ReadonlyArray<readonly [string, number]>): void {
    this.reportedCounts = new Map(counts);
  }

  /** The record count of every index owning records (what a replica reports, `noteRecordCounts`). */
  recordCounts(): Array<[string, number]> {
    const counts: Array<[string, number]> = [];
    for (const entry of this.entries.values()) if (entry.engine) counts.push([entry.name, entry.engine.size]);
    return counts;
  }
}
