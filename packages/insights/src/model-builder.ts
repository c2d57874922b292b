/**
 * Model builds off the main thread. A build from scratch reads every event of the models' window (a million
 * events took 19 s on the main thread, every request waiting, `/1/isalive` timing out), and any build reads the
 * aggregates of the whole window; here it runs in a worker thread (`model-thread.ts`) with a read-only
 * connection of its own to the event log and the only writing one to the aggregates (`model-store.ts`), and
 * only the packed result comes back (`model-tables.ts`: a few strings copied, the arrays transferred). The thread
 * reads the events in steps of 10,000, each its own snapshot (`model-update.ts`), so it never holds the
 * database's checkpoints back for a whole build.
 *
 * A thread is started for a build and ends once no build waits for it: the heap a build grew (150 MB at 340,000
 * events) is given back rather than kept for ten minutes. One that dies (its memory limit, a crash) fails the
 * build under way; the next build starts another. Its heap is capped (`MODEL_THREAD_HEAP_MB`): the build's own
 * bounds keep it far below, the cap keeps a bug from taking the process.
 *
 * Rejected: the build in slices on the main thread (each slice is still the main thread's time, and a whole
 * build's objects would live on its heap); keeping the models in the thread and asking it per recommendation
 * (a round trip per lookup, and trending facets read every item's counts).
 */
import { Worker } from 'node:worker_threads';
import type { InsightsDb } from './db.ts';
import type { InsightsOptions } from './deps.ts';
import type { PackedModels } from './model-tables.ts';
import type { BuildReport } from './models.ts';
import type { ReRankingTables } from './reranking/build.ts';
import type { EngagementTables } from './categorization/engagement.ts';

/** The thread's module: compiled, or, running from the sources, a shim that registers the TypeScript loader first. */
const ENTRY = import.meta.url.endsWith('.ts') ? new URL('./model-thread-entry.mjs', import.meta.url) : new URL('./model-thread.js', import.meta.url);
const MODEL_THREAD_HEAP_MB = 1536;

export interface BuildRequest {
  id: number;
  now: number;
  options: InsightsOptions;
  /** Rebuild the aggregates from scratch. */
  full: boolean;
}

export interface BuildResult {
  packed: PackedModels;
  report: BuildReport;
  /** Dynamic re-ranking's boosts (`reranking/build.ts`). */
  reRanking: ReRankingTables;
  /** What query categorization learns from (`categorization/engagement.ts`). */
  engagement: EngagementTables;
}

export type BuildReply = ({ id: number } & BuildResult) | { id: number; error: string };

export class ModelBuilder {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (result: BuildResult) => void; reject: (error: Error) => void }>();
  private stopped = false;

  constructor(
    private readonly db: InsightsDb,
    private readonly modelsFile: string,
    private readonly options: InsightsOptions,
  ) {}

  build(now: number, full = false): Promise<BuildResult> {
    if (this.stopped) return Promise.reject(new Error('insights are closed'));
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise<BuildResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, now, options: this.options, full } satisfies BuildRequest);
    });
  }

  private start(): Worker {
    const workerData = { file: this.db.name, modelsFile: this.modelsFile };
    const worker = new Worker(ENTRY, { workerData, resourceLimits: { maxOldGenerationSizeMb: MODEL_THREAD_HEAP_MB } });
    worker.on('message', (reply: BuildReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) {
        // It closes its connection and ends.
        this.worker = null;
        worker.postMessage('stop');
      }
      if ('error' in reply) waiting?.reject(new Error(`model build failed: ${reply.error}`));
      else waiting?.resolve({ packed: reply.packed, report: reply.report, reRanking: reply.reRanking, engagement: reply.engagement });
    });
    const gone = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`the model thread exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  /** Ends the thread (a build under way fails); resolves once it has. */
  async stop(): Promise<void> {
    this.stopped = true;
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('stop');
    // A build under way finishes before the thread reads the request to stop: it is cut short instead.
    if (this.pending.size > 0) void worker.terminate();
    await exited;
  }
}
