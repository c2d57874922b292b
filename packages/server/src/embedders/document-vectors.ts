/**
 * Records' vectors of the embedders the server computes (`rest` endpoints, `huggingFace` local models), filled
 * after their writes: a write is acknowledged once logged, as any (the embedder is never on the durability
 * path); its vector follows as a task of its own.
 *
 * Each index with such embedders has one worker. A round asks the records (on a search thread, which holds them)
 * for those still without a vector of an embedder, renders their texts (`storage/document-template.ts`), embeds
 * them, and logs a batch of `fillVector` requests, which set each vector only if the record's text is still the
 * one embedded (`storage/vector-fill.ts`); then the next round, until no record lacks one. Rounds start when a
 * batch, a settings change, a copy or a move touches the index, and when the server starts (a record written
 * just before a crash, whose vector was never logged, is found then). Nothing is kept here that a restart
 * needs: what lacks a vector is read from the records.
 *
 * A failed round (the embedder down, hanging past `embedderDocumentTimeoutMs`, answering something unusable; a
 * local model's folder gone or broken) is tried again after 1 s, doubling up to `embedderRetryMaxMs`; meanwhile searches find those records by
 * their keywords, and the index's status says why (`GET /1/indexes/{index}/embedders`). A record whose text is
 * empty, or for which the embedder answers a vector of zeros, is skipped until it is written again.
 */
import type { ComputedEmbedder, EmbedderSettings, EmbedderStatus, IndexSettings } from '@vitrine/protocol';
import type { ServerLimits } from '../config.ts';
import type { Store } from '../storage/store.ts';
import type { LoggedBatchRequest, Op } from '../storage/ops.ts';
import { computedEmbedders, isComputed } from '../storage/embedder-settings.ts';
import { documentText, textHash } from '../storage/document-template.ts';
import type { ReadTarget } from '../search/reads.ts';
import { embedWith } from './embed.ts';
import type { LocalModels } from './local-models.ts';
import { EmbedderError, vectorProblem } from './rest-client.ts';

/** Records embedded per round (a logged batch each). */
const ROUND = 40;
/** Records skipped per embedder at most (empty texts, vectors of zeros): past it, the oldest are tried again. */
const MAX_SKIPPED = 1000;
const FIRST_RETRY_MS = 1000;

interface Worker {
  running: Promise<void> | null;
  /** Woken while a round ran: run again after it. */
  again: boolean;
  retry: NodeJS.Timeout | null;
  failures: number;
  lastError?: { message: string; at: string };
  /** Per embedder: objectIDs of records that could not be embedded (skipped until written again). */
  skipped: Map<string, Set<string>>;
}

export class DocumentVectors {
  private readonly workers = new Map<string, Worker>();
  private readonly stopping = new AbortController();
  private readonly idleWaiters: Array<() => void> = [];

  constructor(
    private readonly store: Store,
    private readonly reads: ReadTarget,
    private readonly limits: Pick<ServerLimits, 'embedderDocumentTimeoutMs' | 'embedderRetryMaxMs'>,
    private readonly models: LocalModels,
  ) {}

  /** Wakes the workers of the indexes an applied operation touched (fills are followed by their own worker). */
  noteApplied(op: Op): void {
    if (op.kind === 'batch') {
      const writes = op.requests.filter((r) => r.action !== 'fillVector');
      for (const request of writes) {
        const objectID = request.body?.objectID;
        if (typeof objectID === 'string') for (const skipped of this.workers.get(request.indexName)?.skipped.values() ?? []) skipped.delete(objectID);
      }
      for (const name of new Set(writes.map((r) => r.indexName))) this.wake(name);
    } else if (op.kind === 'settings') this.wake(op.indexName);
    else if (op.kind === 'operation') this.wake(op.destination);
  }

  /**
   * Every index with embedders the server computes (at start), after loading their local models once each: the
   * first query then finds its model ready, and a model whose folder went missing shows in the status at once.
   */
  wakeAll(): void {
    const models = new Map<string, Parameters<LocalModels['load']>[0]>();
    for (const name of this.store.listIndices()) {
      for (const [, embedder] of computedEmbedders(this.settingsOf(name) ?? {})) if (embedder.source === 'huggingFace') models.set(`${embedder.pooling}\u0000${embedder.model}`, embedder);
    }
    for (const embedder of models.values()) this.models.load(embedder, this.limits.embedderDocumentTimeoutMs).catch(() => {});
    for (const name of this.store.listIndices()) this.wake(name);
  }

  /** Starts a round for the index, or one more after the one under way. */
  wake(indexName: string): void {
    if (this.stopping.signal.aborted) return;
    const settings = this.settingsOf(indexName);
    if (settings === undefined || computedEmbedders(settings).length === 0) return;
    let worker = this.workers.get(indexName);
    if (worker === undefined) this.workers.set(indexName, (worker = { running: null, again: false, retry: null, failures: 0, skipped: new Map() }));
    if (worker.running !== null) {
      worker.again = true;
      return;
    }
    if (worker.retry !== null) {
      clearTimeout(worker.retry);
      worker.retry = null;
    }
    worker.running = this.run(indexName, worker).finally(() => {
      worker.running = null;
      if (worker.again && !this.stopping.signal.aborted) {
        worker.again = false;
        this.wake(indexName);
      } else if (this.idle) for (const resolve of this.idleWaiters.splice(0)) resolve();
    });
  }

  /** Resolves once no round is under way or due now (failed ones waiting to retry count as done). */
  async settled(): Promise<void> {
    if (!this.idle) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private get idle(): boolean {
    for (const worker of this.workers.values()) if (worker.running !== null) return false;
    return true;
  }

  /** What each embedder of the index holds and does. */
  async status(indexName: string): Promise<Record<string, EmbedderStatus>> {
    const embedders = (this.settingsOf(indexName)?.embedders ?? {}) as Record<string, EmbedderSettings>;
    const names = Object.keys(embedders);
    const counts = names.length === 0 ? { records: 0, vectors: [] } : await this.reads.read({ kind: 'vectorCounts', indexName, embedders: names });
    const worker = this.workers.get(indexName);
    const out: Record<string, EmbedderStatus> = {};
    names.forEach((name, i) => {
      const embedder = embedders[name];
      const { source, dimensions } = embedder;
      const status: EmbedderStatus = { source, dimensions, vectors: counts.vectors[i], missing: counts.records - counts.vectors[i], state: 'idle' };
      if (isComputed(embedder) && worker !== undefined) {
        if (worker.running !== null) status.state = 'embedding';
        else if (worker.retry !== null) status.state = 'failing';
        if (worker.lastError !== undefined) Object.assign(status, { lastError: worker.lastError.message, lastErrorAt: worker.lastError.at });
      }
      const problem = embedder.source === 'huggingFace' ? this.models.problem(embedder) : undefined;
      if (problem !== undefined) {
        if (status.state === 'idle') status.state = 'failing';
        Object.assign(status, { lastError: problem.message, lastErrorAt: problem.at });
      }
      out[name] = status;
    });
    return out;
  }

  close(): void {
    this.stopping.abort();
    for (const worker of this.workers.values()) if (worker.retry !== null) clearTimeout(worker.retry);
  }

  /** The settings of an index owning records (a replica's are its primary's: none of its own to embed). */
  private settingsOf(indexName: string): IndexSettings | undefined {
    const entry = this.store.registry.peek(indexName);
    return entry?.engine === undefined ? undefined : entry.settings;
  }

  private async run(indexName: string, worker: Worker): Promise<void> {
    try {
      // Rounds until no embedder of the index has a record left to embed.
      for (let progress = true; progress && !this.stopping.signal.aborted; ) {
        progress = false;
        const settings = this.settingsOf(indexName);
        if (settings === undefined) return;
        for (const [name, embedder] of computedEmbedders(settings)) {
          if (await this.round(indexName, settings, name, embedder, worker)) progress = true;
        }
      }
      worker.failures = 0;
    } catch (error) {
      if (this.stopping.signal.aborted) return;
      const message = error instanceof EmbedderError ? error.message : (error as Error).message;
      worker.lastError = { message, at: new Date().toISOString() };
      const wait = Math.min(this.limits.embedderRetryMaxMs, FIRST_RETRY_MS * 2 ** worker.failures++);
      worker.retry = setTimeout(() => {
        worker.retry = null;
        this.wake(indexName);
      }, wait);
      worker.retry.unref();
    }
  }

  /** One round for one embedder: true when it logged vectors (there may be more to do). */
  private async round(indexName: string, settings: IndexSettings, name: string, embedder: ComputedEmbedder, worker: Worker): Promise<boolean> {
    let skipped = worker.skipped.get(name);
    if (skipped === undefined) worker.skipped.set(name, (skipped = new Set()));
    const records = await this.reads.read({ kind: 'vectorless', indexName, embedder: name, limit: ROUND, skip: [...skipped.keys()] });
    if (records.length === 0) return false;
    const texts = records.map((record) => documentText(record, embedder, settings));
    const todo = texts.flatMap((text, i) => (text === '' ? [] : [i]));
    const call = { timeoutMs: this.limits.embedderDocumentTimeoutMs, attempts: 3, signal: this.stopping.signal, query: false };
    const vectors = todo.length === 0 ? [] : await embedWith(this.models, embedder, todo.map((i) => texts[i]), call);
    const requests: LoggedBatchRequest[] = [];
    const skip = (i: number) => {
      skipped.add(records[i].objectID);
      if (skipped.size > MAX_SKIPPED) skipped.delete(skipped.values().next().value as string);
    };
    for (let i = 0; i < records.length; i++) if (texts[i] === '') skip(i);
    todo.forEach((i, j) => {
      const problem = vectorProblem(vectors[j], embedder.dimensions);
      // A vector of the wrong size is the settings' fault (dimensions): the round fails, for every record.
      if (problem !== null && Array.isArray(vectors[j]) && (vectors[j] as unknown[]).length !== embedder.dimensions) throw new EmbedderError(`it answered ${problem}`, true);
      if (problem !== null) return skip(i);
      requests.push({ indexName, action: 'fillVector', body: { objectID: records[i].objectID }, vector: { embedder: name, textHash: textHash(texts[i]), values: vectors[j] as number[] } });
    });
    if (requests.length === 0) return true;
    const taskID = await this.store.submit({ kind: 'batch', at: new Date().toISOString(), requests });
    await this.store.waitForTask(taskID);
    return true;
  }
}
