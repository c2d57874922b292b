/**
 * Local sentence models (`huggingFace` embedders) as the main thread uses them: every load and every embedding
 * is a job of the model thread (`model-thread.ts`), started at the first job and again after it stopped. A
 * model is a folder inside the models folder (`ServerConfig.modelsDir`, `<data folder>/models` by default),
 * named by the embedder's `model`; Vitrine never downloads one.
 *
 * - `check`: a settings write naming a model loads it afresh and embeds a probe before the write is logged: a
 *   folder missing or incomplete, a file that is not a model, vectors of another size answer 400.
 * - `embed`: texts in, vectors out; a query's job goes before waiting documents'. Failures are `EmbedderError`s
 *   (as a rest embedder's), so that the callers handle both alike.
 * - `problem`: the last load of a model failed (its folder was removed after the settings were written): the
 *   index's embedder status shows it until a load succeeds.
 */
import { Worker } from 'node:worker_threads';
import { relative, resolve, sep } from 'node:path';
import type { HuggingFaceEmbedder, IndexSettings } from '@vitrine/protocol';
import { createError } from '../errors.ts';
import { computedEmbedders } from '../storage/embedder-settings.ts';
import { threadFlags } from '../search/thread-spawn.ts';
import type { ModelAnswer, ModelJob } from './model-thread.ts';
import { EmbedderError } from './rest-client.ts';

/** The thread's module: compiled, or, running from the sources, a shim that registers the TypeScript loader first. */
const ENTRY = import.meta.url.endsWith('.ts') ? new URL('./model-thread-entry.mjs', import.meta.url) : new URL('./model-thread.js', import.meta.url);

/** Distributes a job over its own id (the `ModelJob` union kept whole). */
type JobRequest = ModelJob extends infer J ? (J extends ModelJob ? Omit<J, 'id'> : never) : never;

interface Pending {
  resolve(answer: ModelAnswer): void;
  reject(error: Error): void;
}

export interface EmbedOptions {
  timeoutMs: number;
  /** A query's job, run before waiting documents'. */
  query: boolean;
  signal?: AbortSignal;
}

/** Texts per job of a document round: a query waits for one such batch at most. */
const DOCUMENT_BATCH = 8;

export class LocalModels {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Per model folder: the last load's failure and when (cleared by a load or an embedding that succeeds). */
  private readonly problems = new Map<string, { message: string; at: string }>();
  /** Per model folder: loads made afresh, so that vectors kept of an earlier load are told apart (`generation`). */
  private readonly loads = new Map<string, number>();
  private closed = false;

  constructor(readonly modelsDir: string) {}

  /** The folder of a model's name (checked again here: a name never leads outside the models folder). */
  folderOf(model: string): string {
    const root = resolve(this.modelsDir);
    const folder = resolve(root, model);
    const inside = relative(root, folder);
    if (inside === '' || inside.startsWith('..') || inside.startsWith(sep)) throw new EmbedderError(`"${model}" is not a folder inside the models folder`, true);
    return folder;
  }

  /** How many times the model was loaded afresh: part of what identifies its vectors (query cache). */
  generation(embedder: HuggingFaceEmbedder): number {
    return this.loads.get(this.folderOf(embedder.model)) ?? 0;
  }

  /** Why the model's last load failed, if it did, and when. */
  problem(embedder: HuggingFaceEmbedder): { message: string; at: string } | undefined {
    return this.problems.get(this.folderOf(embedder.model));
  }

  /**
   * Loads the model afresh and embeds a probe; throws a 400 naming `where` (`embedders.<name>.model`) when it
   * cannot, or when its vectors are not of the embedder's dimensions.
   */
  async check(embedder: HuggingFaceEmbedder, where: string, timeoutMs: number): Promise<void> {
    let dimensions: number;
    try {
      dimensions = await this.load(embedder, timeoutMs);
    } catch (error) {
      throw createError('INVALID_PARAMETER', `${where}.model`, (error as Error).message);
    }
    if (dimensions !== embedder.dimensions) throw createError('INVALID_PARAMETER', `${where}.dimensions`, `the model "${embedder.model}" gives vectors of ${dimensions} numbers`);
  }

  /**
   * Checks (`check`) each huggingFace embedder of a settings write that is new or changed since `current`, or
   * whose model's last load failed: a client writing back the settings it read loads nothing again.
   */
  async checkChanged(patch: IndexSettings, current: IndexSettings | undefined, timeoutMs: number): Promise<void> {
    const before = new Map(computedEmbedders(current ?? {}));
    for (const [name, embedder] of computedEmbedders(patch)) {
      if (embedder.source !== 'huggingFace') continue;
      if (JSON.stringify(before.get(name)) === JSON.stringify(embedder) && this.problem(embedder) === undefined) continue;
      await this.check(embedder, `embedders.${name}`, timeoutMs);
    }
  }

  /** Loads the model afresh (a failure is its `problem` until a load succeeds); resolves to its vectors' size. */
  async load(embedder: HuggingFaceEmbedder, timeoutMs: number): Promise<number> {
    const folder = this.folderOf(embedder.model);
    try {
      const answer = await this.run({ kind: 'load', folder, name: embedder.model, pooling: embedder.pooling ?? 'useModel' }, timeoutMs);
      this.problems.delete(folder);
      this.loads.set(folder, (this.loads.get(folder) ?? 0) + 1);
      return (answer as { dimensions: number }).dimensions;
    } catch (error) {
      this.problems.set(folder, { message: (error as Error).message, at: new Date().toISOString() });
      throw error;
    }
  }

  /** The vectors of `texts` (unchecked: `vectorProblem` tells what is wrong with one). Throws `EmbedderError`. */
  async embed(embedder: HuggingFaceEmbedder, texts: readonly string[], options: EmbedOptions): Promise<number[][]> {
    const folder = this.folderOf(embedder.model);
    const job = { kind: 'embed' as const, folder, name: embedder.model, pooling: embedder.pooling ?? 'useModel', query: options.query };
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += DOCUMENT_BATCH) {
      if (options.signal?.aborted) throw new EmbedderError('the server is stopping', false);
      const answer = await this.run({ ...job, texts: texts.slice(i, i + DOCUMENT_BATCH) }, options.timeoutMs);
      for (const vector of (answer as { vectors: Float32Array[] }).vectors) out.push(Array.from(vector));
    }
    this.problems.delete(folder);
    return out;
  }

  close(): void {
    this.closed = true;
    void this.worker?.terminate();
    this.worker = null;
  }

  private thread(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = new Worker(ENTRY, { execArgv: threadFlags(process.execArgv) });
    // Idle, it does not keep the process alive; a job under way does (`run`).
    worker.unref();
    const fail = (message: string) => {
      if (this.worker === worker) this.worker = null;
      for (const pending of this.pending.values()) pending.reject(new EmbedderError(message, false));
      this.pending.clear();
    };
    worker.on('message', (answer: ModelAnswer) => {
      const pending = this.settle(answer.id);
      if (pending === undefined) return;
      if ('error' in answer) pending.reject(new EmbedderError(answer.error, true));
      else pending.resolve(answer);
    });
    worker.on('error', (error) => fail(`the model thread failed (${error.message})`));
    worker.on('exit', (code) => fail(`the model thread stopped (exit code ${code})`));
    this.worker = worker;
    return worker;
  }

  /** The job's waiter, no longer waiting; the thread no longer keeps the process alive once none waits. */
  private settle(id: number): Pending | undefined {
    const pending = this.pending.get(id);
    this.pending.delete(id);
    if (this.pending.size === 0) this.worker?.unref();
    return pending;
  }

  /** One job on the model thread; rejects with `EmbedderError` past `timeoutMs` (the job's answer is then dropped). */
  private run(request: JobRequest, timeoutMs: number): Promise<ModelAnswer> {
    if (this.closed) return Promise.reject(new EmbedderError('the server is stopping', false));
    const worker = this.thread();
    const id = this.nextId++;
    return new Promise<ModelAnswer>((resolvePromise, rejectPromise) => {
      const timer = setTimeout(() => {
        this.settle(id);
        rejectPromise(new EmbedderError(`the model gave no answer within ${timeoutMs} ms`, false));
      }, timeoutMs);
      timer.unref();
      this.pending.set(id, {
        resolve: (answer) => {
          clearTimeout(timer);
          resolvePromise(answer);
        },
        reject: (error) => {
          clearTimeout(timer);
          rejectPromise(error);
        },
      });
      worker.ref();
      worker.postMessage({ ...request, id } as ModelJob);
    });
  }
}
