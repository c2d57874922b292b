/**
 * The model thread: runs local sentence models (`model-files.ts`) for the main thread (`local-models.ts`), one
 * job at a time, queries first. A model's run holds the thread it runs on (onnxruntime-node's `run` computes
 * synchronously), so it never runs on the main thread, which answers HTTP, logs writes and schedules searches.
 *
 * Jobs: `load` (loads a model afresh, replacing the one kept, and embeds a probe: its size), `embed` (texts of
 * one model; documents come in small batches so that a query waits for one batch at most). Loaded models are
 * kept by folder and pooling until loaded afresh.
 */
import { parentPort } from 'node:worker_threads';
import { embedBatch, loadModel, type LoadedModel, type Pooling } from './model-files.ts';

export type ModelJob =
  | { id: number; kind: 'load'; folder: string; name: string; pooling: Pooling }
  | { id: number; kind: 'embed'; folder: string; name: string; pooling: Pooling; texts: string[]; query: boolean };

export type ModelAnswer = { id: number; vectors: Float32Array[] } | { id: number; dimensions: number } | { id: number; error: string };

/** A text every model embeds, to learn its vectors' size. */
const PROBE = 'Vitrine';

const port = parentPort!;
const models = new Map<string, Promise<LoadedModel>>();
const queue: ModelJob[] = [];
let busy = false;

function modelFor(job: ModelJob): Promise<LoadedModel> {
  const key = `${job.pooling}\u0000${job.folder}`;
  let model = models.get(key);
  if (model === undefined || job.kind === 'load') {
    const previous = model;
    model = loadModel(job.folder, job.name, job.pooling);
    models.set(key, model);
    // A failed load is not kept: the next job tries again (the shop may have put the files there since).
    model.catch(() => {
      if (models.get(key) === model) models.delete(key);
    });
    void previous?.then((old) => old.session.release()).catch(() => {});
  }
  return model;
}

async function answer(job: ModelJob): Promise<ModelAnswer> {
  try {
    const model = await modelFor(job);
    if (job.kind === 'load') return { id: job.id, dimensions: (await embedBatch(model, [PROBE]))[0].length };
    return { id: job.id, vectors: await embedBatch(model, job.texts) };
  } catch (error) {
    return { id: job.id, error: (error as Error).message };
  }
}

/** The next job: the oldest query, else the oldest other job. */
function next(): ModelJob | undefined {
  const query = queue.findIndex((job) => job.kind === 'embed' && job.query);
  return queue.splice(query === -1 ? 0 : query, 1)[0];
}

async function work(): Promise<void> {
  busy = true;
  for (let job = next(); job !== undefined; job = next()) {
    const result = await answer(job);
    port.postMessage(result);
    // Lets jobs sent meanwhile arrive before the next is chosen: a query overtakes waiting documents.
    await new Promise((resolve) => setImmediate(resolve));
  }
  busy = false;
}

port.on('message', (job: ModelJob) => {
  queue.push(job);
  if (!busy) void work();
});
