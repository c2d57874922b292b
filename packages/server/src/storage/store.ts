/**
 * The Store: durable writes as tasks over the in-memory indexes.
 *
 * A write is validated, queued, and committed to the SQLite operation log together with every other write that
 * arrived in the same event-loop turn; the log file is then flushed to disk off the event loop, one fsync for
 * every commit made meanwhile (`wal-sync.ts`). Its promise resolves with the task ID once that flush completed,
 * so an acknowledged write survives a crash. Operations are then applied to the engine in log order, a few at a
 * time between requests; a task is `published` once applied (search sees it). Snapshots of the whole state are
 * taken every so many operations; the log before a snapshot is deleted. Restart = latest snapshot + replay of the
 * log after it. See DESIGN.md.
 */
import { mkdirSync } from 'node:fs';
import { EngineError, validateRule } from '@vitrine/engine';
import type { IncomingRecord, IndexSettings, Rule, TaskInfo } from '@vitrine/protocol';
import type { ServerLimits } from '../config.ts';
import { resolveLimits } from '../config.ts';
import { createError } from '../errors.ts';
import { getMeta, setMeta, trimLog } from './db.ts';
import { checkLogStart, damaged, DataFolderError, inspectDataFolder, openLogDb, recordDataFormat, settleOpenedFolder } from './data-folder.ts';
import type { DataFolderState } from './data-folder.ts';
import type { Db } from './db.ts';
import { opWeight } from './ops.ts';
import type { Op } from './ops.ts';
import { IndexRegistry } from './registry.ts';
import { pruneSnapshots, readSnapshot } from './snapshot.ts';
import { writeSnapshotFolder } from './snapshot-folder.ts';
import type { SnapshotDelegate } from './snapshot-folder.ts';
import { checkRuleParams, prepareBatchRequest, validateSettingsPatch } from './validate.ts';
import { LogBudget } from './log-budget.ts';
import type { LogMark } from './log-budget.ts';
import { readLogTail, recordsIn, replayRows } from './replay.ts';
import type { LoggedRow } from './replay.ts';
import type { AppliedOp, ReplicaStart, SnapshotCapture } from './replica.ts';
import { LogWriter } from './log-writer.ts';
import { ApplyLoop } from './apply-loop.ts';
import { SearchActivity } from './indexing-share.ts';

/** The longest scheduled snapshots wait for a search thread to be ready (`holdScheduledSnapshots`). */
const SNAPSHOT_HOLD_MAX_MS = 60_000;

export interface StoreOptions {
  dataDir: string;
  limits?: Partial<ServerLimits>;
  /** Called when a logged operation fails to apply (a bug or an engine limit not checked up front). */
  onApplyError?: (taskID: number, error: unknown) => void;
  /** The fsync that flushes the log to disk (tests stand in a slow or failing one). */
  walFsync?: (fd: number, done: (error: Error | null) => void) => void;
}

export class Store {
  readonly limits: ServerLimits;
  /** Searches answered (the search routes note each): the apply loop rests between slices while they are. */
  readonly searches = new SearchActivity();
  private waiters: Array<{ seq: number; resolve: () => void }> = [];
  private appliedSeq: number;
  private lastSeq: number;
  private snapshotSeq: number;
  /** How much log a restart would replay, and when the next snapshot is due (docs/RELIABILITY.md). */
  private readonly budget: LogBudget;
  /** The log after the snapshot, read when the store is created; dropped once loaded (`load`). */
  private tail: LoggedRow[] | null;
  private loading: Promise<void> | undefined;
  private isLoaded = false;
  private closing: Promise<void> | undefined;
  /** Set once close() stops taking snapshots of its own accord. */
  private closed = false;
  private snapshotting: Promise<void> | undefined;
  /** Called with the operations of each apply slice, once applied here (replicas apply them in turn). */
  private readonly appliedListeners = new Set<(ops: AppliedOp[]) => void>();
  /** Replicas loading a snapshot: old snapshots are kept until they are done. */
  private snapshotPins = 0;
  /** Snapshots being captured or written: nothing may prune the folders meanwhile (the new one is not yet current). */
  private snapshotsInProgress = 0;
  /** Writes snapshots somewhere else than on this thread (a replica); null: here. */
  private delegate: SnapshotDelegate | null = null;
  /** Applies durable operations to the registry, in log order, a slice at a time. */
  private readonly applyLoop: ApplyLoop;
  /**
   * While a replica writes a snapshot after this operation, it holds the operations after it, so their tasks
   * are not published (`publishedSeq`) until it applies them; null otherwise.
   */
  private publicationHeldAt: number | null = null;
  /** Commits writes to the log, durably, off the event loop. */
  private readonly log: LogWriter;

  private constructor(
    readonly dataDir: string,
    readonly db: Db,
    snapshotSeq: number,
    tail: LoggedRow[],
    limits: ServerLimits,
    private readonly onApplyError: (taskID: number, error: unknown) => void,
    walFsync?: (fd: number, done: (error: Error | null) => void) => void,
  ) {
    this.limits = limits;
    this.registry = new IndexRegistry();
    this.snapshotSeq = snapshotSeq;
    this.appliedSeq = snapshotSeq;
    // AUTOINCREMENT keeps new task IDs above every past one; those of the tail are published once loaded.
    this.lastSeq = tail.length > 0 ? tail[tail.length - 1].seq : snapshotSeq;
    this.tail = tail;
    this.budget = new LogBudget(limits);
    this.log = new LogWriter(db, dataDir, {
      // Past the log's cap, writes wait for the snapshot under way, or for the logged operations to be applied
      // (a search thread lagging behind an import holds applying back: then no snapshot can start, and the log
      // grew past the cap, 64,000 records replayed at a million products): what a crash would replay stays
      // bounded. With nothing left to apply and no snapshot under way or deferred (the last one failed), they
      // go on.
      mayCommit: () =>
        !(this.budget.overCap() && (this.snapshotting !== undefined || this.applyLoop.length > 0 || this.deferredSnapshot !== undefined)) &&
        // Writes arriving faster than they are applied wait here rather than pile up in memory, parsed.
        this.applyLoop.backlogBytes <= this.limits.applyBacklogBytes,
      onDurable: (ops) => this.queueForApplying(ops),
    }, walFsync);
    this.applyLoop = new ApplyLoop({
      registry: this.registry,
      limits,
      loaded: () => this.isLoaded,
      closing: () => this.closing !== undefined,
      started: (entry) => this.startedApplying(entry),
      applied: (entries) => this.tellApplied(entries),
      // After every slice, not once the queue is empty: under a sustained import it never is, and the log (what
      // a crash would replay) grew by a million records without a snapshot.
      afterSlice: () => this.maybeSnapshot(),
      searchesRecent: () => this.searches.recent,
    });
  }

  /** The in-memory state; filled by `load` (the same object throughout: routes keep it). */
  readonly registry: IndexRegistry;

  /** Opens (or creates) a data folder: loads the latest snapshot, then replays the log after it. */
  static async open(options: StoreOptions): Promise<Store> {
    const store = Store.create(options);
    try {
      await store.load();
    } catch (error) {
      store.db.close();
      store.log.close();
      throw error;
    }
    return store;
  }

  /**
   * Opens (or creates) a data folder without loading it: the log is ready for writes (applied once loaded), and
   * replicas can start from it (`startReplica`) while `load` runs, in parallel.
   */
  static create(options: StoreOptions): Store {
    // A folder of a newer format, damaged or not Vitrine's is refused before anything in it is written.
    const folder = inspectDataFolder(options.dataDir);
    // Records, key hashes and events (insights) are private: a new data folder is readable by its owner only.
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    if (folder.kind === 'new') recordDataFormat(options.dataDir);
    const limits = resolveLimits(options.limits);
    const onApplyError = options.onApplyError ?? ((taskID, error) => console.error(`task ${taskID} failed to apply:`, error));
    const db = openLogDb(options.dataDir, folder);
    try {
      const snapshot = Number(getMeta(db, 'snapshot_seq') ?? 0);
      checkLogStart(options.dataDir, db, snapshot);
      // Read before anything is pruned: a damaged log stops the start with the folder as it was.
      const tail = readLogTail(db, snapshot);
      pruneSnapshots(options.dataDir, snapshot > 0 ? snapshot : undefined);
      const store = new Store(options.dataDir, db, snapshot, tail, limits, onApplyError, options.walFsync);
      store.folder = folder;
      return store;
    } catch (error) {
      db.close();
      throw damaged(options.dataDir, error);
    }
  }

  /** The data folder as found when opened: recorded in this build's format once loaded (`load`). */
  private folder: DataFolderState = { kind: 'new' };

  /** Until then (performance.now()), a snapshot due waits (see `maybeSnapshot`); the timer that takes it then. */
  private snapshotDeferredUntil = 0;
  private deferredSnapshot: NodeJS.Timeout | undefined;
  /** Until then, scheduled snapshots wait for the searches to be answerable (`holdScheduledSnapshots`). */
  private snapshotsHeldUntil = 0;

  /** How the load went (ms since the process started, ms per step, what the replay applied): the start-up report. */
  startup: { startedAtMs: number; snapshotMs: number; replayMs: number; replayedOps: number; replayedRecords: number } | null = null;

  /** True once the snapshot is loaded and the log after it replayed. */
  get loaded(): boolean {
    return this.isLoaded;
  }

  /**
   * Loads the latest snapshot, then replays the log after it, letting the event loop turn between files and
   * slices of the replay. Writes submitted meanwhile are logged and applied after. Idempotent.
   */
  load(): Promise<void> {
    let loaded = (): void => {};
    this.loading ??= (async () => {
      const began = performance.now();
      // Once loaded (and the first searches answered: `recordsFromFilesAfterStartMs`), the records unchanged since
      // the snapshot are read from its files (`snapshot-records.ts`).
      const recordsFromFilesAfter = new Promise<void>((resolve) => (loaded = resolve));
      if (this.snapshotSeq > 0) {
        await readSnapshot(this.dataDir, this.snapshotSeq, this.registry, { recordsFromFilesAfter }).catch((error: unknown) => {
          throw new DataFolderError(`snapshot ${this.snapshotSeq} of ${this.dataDir} cannot be read (${(error as Error).message}): restore the data folder from a backup; it was left as it is`, { cause: error });
        });
      }
      const read = performance.now();
      const tail = this.tail ?? [];
      const replayed = await replayRows(this.registry, tail, this.onApplyError);
      this.startup = { startedAtMs: began, snapshotMs: read - began, replayMs: performance.now() - read, replayedOps: replayed.ops, replayedRecords: replayed.records };
      this.tail = null;
      if (tail.length > 0) this.appliedSeq = tail[tail.length - 1].seq;
      this.budget.replayed(replayed);
      if (replayed.ops > 0) this.snapshotDeferredUntil = performance.now() + this.limits.snapshotAfterStartMs;
      this.isLoaded = true;
      settleOpenedFolder(this.dataDir, this.folder);
      setTimeout(loaded, this.limits.recordsFromFilesAfterStartMs).unref();
      this.applyLoop.schedule();
      this.maybeSnapshot();
    })();
    return this.loading;
  }

  // ---------------------------------------------------------------- tasks

  /** Queues a validated operation; resolves with its task ID once it is durable in the log. */
  submit(op: Op): Promise<number> {
    if (this.closing) return Promise.reject(createError('TOO_MANY_PENDING_TASKS', 'the server is shutting down'));
    if (this.log.waiting + this.applyLoop.length >= this.limits.maxPendingTasks) {
      return Promise.reject(createError('TOO_MANY_PENDING_TASKS', this.limits.maxPendingTasks));
    }
    return this.log.submit(op);
  }

  /** Durable operations, in log order: counted against the log's budget and queued for applying. */
  private queueForApplying(ops: AppliedOp[]): void {
    for (const entry of ops) {
      this.budget.loggedOp(opWeight(entry.op), entry.json.length);
      this.lastSeq = Math.max(this.lastSeq, entry.seq);
    }
    this.applyLoop.push(ops);
  }

  /** An operation starts applying: its weight in the log's budget depends on the state before it. */
  private startedApplying(entry: AppliedOp): (error: unknown) => void {
    const { seq, op } = entry;
    // What replaying it costs depends on the state before it (a copy counts the records copied).
    const weight = opWeight(op, (name) => recordsIn(this.registry, name));
    return (error) => {
      if (error !== undefined) this.onApplyError(seq, error instanceof EngineError ? error.message : error);
      this.budget.applied(opWeight(op), weight, entry.json.length);
      this.appliedSeq = seq;
    };
  }

  /** Hands applied operations to the listeners (replicas), then publishes their tasks. */
  private tellApplied(applied: AppliedOp[]): void {
    if (applied.length > 0) for (const listener of this.appliedListeners) listener(applied);
    this.wakeWaiters();
    // Writes held at the log's cap while operations waited to be applied may go on now (see `mayCommit`).
    this.log.flushSoon();
  }

  /** The last operation every search sees: applied here, and by the replicas (see `publicationHeldAt`). */
  private get publishedSeq(): number {
    return this.publicationHeldAt === null ? this.appliedSeq : Math.min(this.appliedSeq, this.publicationHeldAt);
  }

  /** While a replica writes a snapshot after `seq`: see `publicationHeldAt`. Returns the release. */
  private holdPublication(seq: number): () => void {
    this.publicationHeldAt = seq;
    return () => {
      if (this.publicationHeldAt !== seq) return;
      this.publicationHeldAt = null;
      this.wakeWaiters();
    };
  }

  private wakeWaiters(): void {
    if (this.waiters.length === 0) return;
    const published = this.publishedSeq;
    const ready = this.waiters.filter((w) => w.seq <= published);
    this.waiters = this.waiters.filter((w) => w.seq > published);
    for (const waiter of ready) waiter.resolve();
  }

  /**
   * `published` once search sees the task, `notPublished` while pending, undefined for an unknown task ID.
   * Replicas (search threads) receive each operation before it is published here, and a search sent to one
   * after that is queued behind it, so `published` holds for them too.
   */
  taskStatus(taskID: number): 'published' | 'notPublished' | undefined {
    if (!Number.isInteger(taskID) || taskID <= 0 || taskID > this.lastSeq) return undefined;
    return taskID <= this.publishedSeq ? 'published' : 'notPublished';
  }

  // ---------------------------------------------------------------- replicas (search threads)

  /**
   * Where a replica of the state starts: the current snapshot and the operations applied since, read now,
   * synchronously. Register its `onApplied` listener in the same turn, and the replica misses nothing.
   */
  startReplica(): ReplicaStart {
    // While loading, the replica starts where the load ends (the tail read once for both): nothing is applied
    // before then, so it misses nothing either.
    const ops = this.tail ?? readLogTail(this.db, this.snapshotSeq).filter((row) => row.seq <= this.appliedSeq);
    return {
      dataDir: this.dataDir,
      snapshotSeq: this.snapshotSeq,
      ops,
      appliedSeq: ops.length > 0 ? ops[ops.length - 1].seq : this.snapshotSeq,
      recordsFromFilesAfterMs: this.limits.recordsFromFilesAfterStartMs,
      indexingShareWhileSearching: this.limits.indexingShareWhileSearching,
      release: this.pinSnapshots(),
    };
  }

  /** Keeps the snapshot folders as they are (none pruned) until the release (idempotent). */
  private pinSnapshots(): () => void {
    this.snapshotPins++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.snapshotPins--;
      // A snapshot being written prunes when it is done (its folder exists before it becomes current).
      if (this.snapshotPins === 0 && this.snapshotsInProgress === 0 && !this.closed) {
        pruneSnapshots(this.dataDir, this.snapshotSeq > 0 ? this.snapshotSeq : undefined);
      }
    };
  }

  /**
   * A snapshot of everything applied so far, its folder kept until `release` (what a backup copies): waits for
   * a snapshot under way, then writes one if operations were applied since the current one. `seq` 0: none.
   */
  async pinSnapshot(): Promise<{ seq: number; release: () => void }> {
    await this.load();
    while (this.snapshotting) await this.snapshotting;
    if (this.closing) throw createError('SHUTTING_DOWN');
    if (this.appliedSeq > this.snapshotSeq) {
      const taken = this.snapshot();
      // As `maybeSnapshot` would have: the next snapshot waits for this one.
      this.snapshotting = taken.then(() => {}, () => {}).finally(() => {
        this.snapshotting = undefined;
        this.log.flushSoon();
        this.maybeSnapshot();
      });
      await taken;
    }
    // Pinned in the turn the snapshot became current: no later one can have pruned it yet.
    return { seq: this.snapshotSeq, release: this.pinSnapshots() };
  }

  /**
   * The records live in replicas (search threads) only from now on: the registry drops its copies and applies
   * no record writes (`IndexRegistry.dropRecords`); snapshots are written by a replica or not at all.
   */
  leaveRecordsToReplicas(): void {
    this.registry.dropRecords();
  }

  /** A replica writes the snapshots (`setSnapshotCapture`). */
  get snapshotsDelegated(): boolean {
    return this.delegate !== null;
  }

  /**
   * Lets a replica write snapshots (see `SnapshotCapture`). Null: capture them here again. `available` resolves
   * once a replica can take one (or none will): a snapshot waits for it rather than capturing here.
   */
  setSnapshotCapture(capture: SnapshotCapture | null, available?: () => Promise<void>): void {
    this.delegate = capture ? { capture, available } : null;
  }

  /**
   * Lets replicas hold the apply loop back while they catch up: each applies every operation too, and what is
   * sent to one after operations it has not applied yet (a search) waits for them. `gate` is asked before each
   * slice; a promise means: apply nothing until it settles. Null: no gate.
   */
  setApplyGate(gate: (() => Promise<void> | undefined) | null): void {
    this.applyLoop.gate = gate;
  }

  /**
   * Lets a batch be applied in steps over several turns of the loop while `allowed()` says so: when no search
   * runs here in several slices (search threads answer them), which could otherwise see a batch half applied
   * between two of its slices. Reads of the batch's indexes meanwhile finish it first. Null: every operation
   * in one go.
   */
  setApplyInSteps(allowed: (() => boolean) | null): void {
    this.applyLoop.inSteps = allowed;
  }

  /** `listener` receives the operations of every apply slice, before their tasks are published. */
  onApplied(listener: (ops: AppliedOp[]) => void): () => void {
    this.appliedListeners.add(listener);
    return () => this.appliedListeners.delete(listener);
  }

  /** Resolves once the task is visible to search. */
  waitForTask(taskID: number): Promise<void> {
    const status = this.taskStatus(taskID);
    if (status === undefined) return Promise.reject(createError('TASK_NOT_FOUND'));
    if (status === 'published') return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ seq: taskID, resolve }));
  }

  pendingTasks(indexName: string): number {
    return this.applyLoop.pending(indexName);
  }

  /**
   * For `/metrics`, read when scraped: the current snapshot's position (0: none yet), the log since it (what a
   * crash now would replay), and the writes accepted and not yet applied (logged or waiting to be).
   */
  logStats(): { snapshotSeq: number; sinceSnapshot: LogMark; pendingTasks: number } {
    return { snapshotSeq: this.snapshotSeq, sinceSnapshot: this.budget.sinceDurable(), pendingTasks: this.log.waiting + this.applyLoop.length };
  }

  // ---------------------------------------------------------------- snapshots

  /**
   * Scheduled snapshots wait while the search threads load (at most `SNAPSHOT_HOLD_MAX_MS`, so that a thread that
   * never starts cannot block writes at the log's cap), then `snapshotAfterStartMs` more once one is ready
   * (`releaseScheduledSnapshots`): a thread writing a snapshot answers searches only between its slices, and a
   * snapshot made due by the replay was captured by the thread the moment it was ready, behind the first
   * searches. Snapshots asked for (backup, stop, tests) do not wait.
   */
  holdScheduledSnapshots(): void {
    this.snapshotsHeldUntil = performance.now() + SNAPSHOT_HOLD_MAX_MS;
  }

  releaseScheduledSnapshots(): void {
    this.snapshotsHeldUntil = 0;
    this.snapshotDeferredUntil = Math.max(this.snapshotDeferredUntil, performance.now() + this.limits.snapshotAfterStartMs);
    if (this.deferredSnapshot !== undefined) {
      clearTimeout(this.deferredSnapshot);
      this.deferredSnapshot = undefined;
    }
    this.maybeSnapshot();
  }

  private maybeSnapshot(): void {
    if (this.snapshotting || this.closed || !this.isLoaded) return;
    // Due after so many operations, records or bytes whatever the catalogue's size: that bounds a restart's
    // replay (docs/RELIABILITY.md), at the price of snapshots more frequent than indexing at a million records.
    if (!this.budget.snapshotDue()) return;
    // Right after a replay, the first searches go first (`snapshotAfterStartMs`); writes past the log's cap wait.
    const wait = Math.max(this.snapshotDeferredUntil, this.snapshotsHeldUntil) - performance.now();
    if (wait > 0) {
      this.deferredSnapshot ??= setTimeout(() => {
        this.deferredSnapshot = undefined;
        this.maybeSnapshot();
        this.log.flushSoon();
      }, wait).unref();
      return;
    }
    this.snapshotting = this.snapshot()
      // Nothing is lost: the log keeps every operation; the next attempt comes after as many operations again.
      .catch((error: unknown) => console.error('snapshot failed, the log is kept:', error))
      .finally(() => {
        this.snapshotting = undefined;
        // Writes held at the log's cap go on (after a failure too: refusing them would not make the log shorter).
        this.log.flushSoon();
        this.maybeSnapshot();
      });
  }

  /**
   * Snapshots everything applied so far, then deletes the log it covers. The state is captured synchronously;
   * files are written asynchronously while requests go on.
   */
  async snapshot(): Promise<void> {
    if (this.appliedSeq <= this.snapshotSeq) return;
    this.snapshotsInProgress++;
    try {
      await this.takeSnapshot();
    } finally {
      this.snapshotsInProgress--;
    }
  }

  private async takeSnapshot(): Promise<void> {
    let mark: LogMark | undefined;
    const seq = await writeSnapshotFolder({
      dataDir: this.dataDir,
      registry: this.registry,
      delegate: () => this.delegate,
      appliedSeq: () => this.appliedSeq,
      holdPublication: (held) => this.holdPublication(held),
      holdApplying: () => this.applyLoop.hold(),
      started: () => {
        mark = this.budget.snapshotStarted();
      },
    });
    // Another snapshot, of a later position, became current meanwhile: this one must not take its place (the
    // log before that one is gone). Its folder goes with the next prune.
    if (seq <= this.snapshotSeq) return;
    // Durable before anything is pruned: a restart then starts from this snapshot, and reads only the log after it.
    setMeta(this.db, 'snapshot_seq', String(seq));
    this.snapshotSeq = seq;
    this.budget.snapshotDurable(mark!);
    await trimLog(this.db, seq);
    // A replica still loading an older snapshot keeps it (pruned when the replica releases it); so does another
    // snapshot still being written (pruned at its own end).
    if (this.snapshotPins === 0 && this.snapshotsInProgress === 1) pruneSnapshots(this.dataDir, seq);
  }

  /** Resolves once every accepted write is applied and no snapshot is being written. */
  async settled(): Promise<void> {
    await this.load();
    for (;;) {
      await this.log.drain();
      if (this.lastSeq > this.appliedSeq) await new Promise<void>((resolve) => this.waiters.push({ seq: this.lastSeq, resolve }));
      if (this.snapshotting) await this.snapshotting;
      // Writes held at the log's cap (`flush`) go once the snapshot is written: wait for them too.
      else if (this.log.waiting === 0) return;
    }
  }

  // ---------------------------------------------------------------- convenience API (CLI, importers, tests)

  hasIndex(name: string): boolean {
    return this.registry.has(name);
  }

  getSettings(name: string): IndexSettings | undefined {
    const entry = this.registry.get(name);
    return entry ? this.registry.settingsOf(entry) : undefined;
  }

  /** Merges `settings` into the index's (null resets a key); `replicas` creates and detaches replicas. */
  async setSettings(name: string, settings: IndexSettings, options: { forwardToReplicas?: boolean } = {}): Promise<TaskInfo> {
    const patch = validateSettingsPatch(this.registry, name, settings, this.limits);
    const at = new Date().toISOString();
    const taskID = await this.submit({ kind: 'settings', at, indexName: name, settings: patch, forwardToReplicas: options.forwardToReplicas ?? false });
    return { taskID, updatedAt: at };
  }

  /** Adds or replaces rules by objectID, as `saveRules` does (an invalid rule throws an `EngineError`). */
  async saveRules(name: string, rules: Rule[]): Promise<TaskInfo> {
    rules.forEach((rule, i) => {
      validateRule(rule);
      checkRuleParams(rule, i, this.limits);
    });
    const at = new Date().toISOString();
    const taskID = await this.submit({ kind: 'rules', at, indexName: name, action: 'save', rules, forwardToReplicas: true });
    return { taskID, updatedAt: at };
  }

  /** Adds or replaces records (missing objectIDs are generated), as `saveObjects` does. */
  async saveObjects(name: string, records: IncomingRecord[]): Promise<TaskInfo & { objectIDs: string[] }> {
    const requests = records.map((record, i) =>
      prepareBatchRequest(this.registry, { action: record.objectID === undefined ? 'addObject' : 'updateObject', body: record }, i, name, this.limits.maxRecordBytes),
    );
    const taskID = await this.submit({ kind: 'batch', at: new Date().toISOString(), requests });
    return { taskID, objectIDs: requests.map((r) => r.body!.objectID as string) };
  }

  /** Names of every index, replicas included. */
  listIndices(): string[] {
    return this.registry.all().map((entry) => entry.name).sort();
  }

  /**
   * Replaces an index's settings and records (e.g. a generated query-suggestions index): the settings become
   * exactly `settings`, the records exactly `records` (one atomic batch). Resolves once search sees both.
   */
  async replaceIndex(indexName: string, records: IncomingRecord[], settings: IndexSettings): Promise<void> {
    const current = this.registry.get(indexName)?.settings ?? {};
    const patch: IndexSettings = { ...settings };
    for (const key of Object.keys(current)) if (!(key in patch) && key !== 'replicas' && key !== 'primary') patch[key] = null;
    await this.setSettings(indexName, patch);
    const requests = [
      prepareBatchRequest(this.registry, { action: 'clear' }, 0, indexName, this.limits.maxRecordBytes),
      ...records.map((record, i) => prepareBatchRequest(this.registry, { action: record.objectID === undefined ? 'addObject' : 'updateObject', body: record }, i + 1, indexName, this.limits.maxRecordBytes)),
    ];
    await this.waitForTask(await this.submit({ kind: 'batch', at: new Date().toISOString(), requests }));
  }

  // ---------------------------------------------------------------- lifecycle

  /** Waits for accepted writes to be applied, snapshots when the log grew, closes the database. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      // A store whose load failed has nothing to write: its log is as it was.
      const loaded = await this.load().then(() => true, () => false);
      if (loaded) await this.settled();
      this.closed = true;
      clearTimeout(this.deferredSnapshot);
      // Without records here, only a search thread can write a snapshot: none is left when they have stopped
      // (the log keeps every operation, replayed on the next start).
      if (loaded && this.appliedSeq > this.snapshotSeq && (this.registry.recordsHere || this.snapshotsDelegated)) {
        try {
          await this.snapshot();
        } catch (error) {
          // The log still holds every operation: the next start replays it.
          console.error('snapshot on close failed:', error);
        }
      }
      this.db.close();
      this.log.close();
    })();
    return this.closing;
  }
}
