/**
 * Sends a file's records to an index in batches, reading the file as a stream: the next batch is read only once
 * the previous one is acknowledged, so a file of any size needs the memory of one batch. Upsert writes into the
 * index; replace-all writes into a temporary index (with the target's settings, synonyms and rules copied) and
 * moves it over the target at the end, as the clients' `replaceAllObjects` does.
 */
import type { BatchRequest } from 'algoliasearch';
import type { AdminClient } from '../../api/client.ts';
import { statusOf } from '../../api/access.ts';
import { publish } from '../../api/tasks.ts';
import { readItems } from './readers.ts';
import type { ImportFormat } from './readers.ts';
import { readResumePoint, writeResumePoint } from './resume.ts';
import type { ImportCounts, ImportError, ImportMode, ResumePoint } from './resume.ts';

export interface ImportProgress extends ImportCounts {
  bytesRead: number;
  totalBytes: number;
  /** Records acknowledged by the server (the `accepted` count). */
  imported: number;
  lastLine: number;
  /** The first `maxListedErrors` rejected lines (`element`: in a JSON array); `rejected` counts them all. */
  errors: ImportError[];
  phase: 'reading' | 'publishing' | 'done';
}

export interface ImportOptions {
  client: AdminClient;
  indexName: string;
  file: File;
  format: ImportFormat;
  mode: ImportMode;
  /** Continue after the file's resume point instead of from the start. */
  resume: boolean;
  /** Import lines that are not valid UTF-8 with U+FFFD in place of the bad bytes, instead of listing them. */
  replaceInvalidUtf8?: boolean;
  onProgress(progress: ImportProgress): void;
  signal?: AbortSignal;
}

const maxBatchRecords = 1000;
/**
 * Batches under 128 KB: the server's threads keep each body, and its logged JSON, as one string, which V8 puts
 * in its young generation below that size (collected within the second) and in its large-object space above
 * it (until a full collection). During a large import, such batches keep a shopper's searches faster than
 * 1,000-record batches do, and the import no slower (docs/PERFORMANCE.md). A larger record goes in a batch of
 * its own.
 */
const maxBatchBytes = 100 * 1024;
/** Errors kept for the list (all are counted); a file of garbage must not fill the tab's memory. */
const maxListedErrors = 1000;

type Pending = { line: number; element?: number; record: Record<string, unknown>; bytes: number };

/** Attempts of one batch when the server is busy (429, 503) or unreachable; then the import stops, resumable. */
const maxAttempts = 4;

/**
 * Sends one batch, retrying a busy server with growing pauses. A lost answer (status 0) is retried only when
 * every record has an objectID: resending `addObject` would create a second copy of records already written.
 */
async function sendWithRetry(client: AdminClient, indexName: string, requests: BatchRequest[]): Promise<number> {
  const idempotent = requests.every((request) => request.action === 'updateObject');
  for (let attempt = 1; ; attempt++) {
    try {
      return (await client.batch({ indexName, batchWriteParams: { requests } })).taskID;
    } catch (error) {
      const status = statusOf(error);
      const retryable = status === 429 || status === 503 || (status === 0 && idempotent);
      if (!retryable || attempt === maxAttempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
    }
  }
}

/** Counts bytes as they leave the file, for the progress bar. */
function counting(stream: ReadableStream<Uint8Array>, onBytes: (n: number) => void): ReadableStream<Uint8Array> {
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        onBytes(chunk.byteLength);
        controller.enqueue(chunk);
      },
    }),
  );
}

export async function runImport(options: ImportOptions): Promise<ImportProgress> {
  const { client, indexName, file, format, mode } = options;
  const previous = options.resume ? readResumePoint(file) : undefined;
  const point: ResumePoint = previous ?? {
    indexName,
    mode,
    writeIndex: mode === 'replace' ? `${indexName}_tmp_import_${Date.now()}` : indexName,
    lastLine: 0,
    imported: 0,
    errors: [],
  };
  const counts = point.counts ?? { read: 0, sent: 0, accepted: point.imported, rejected: point.errors.length };
  const progress: ImportProgress = { bytesRead: 0, totalBytes: file.size, ...counts, imported: point.imported, lastLine: point.lastLine, errors: [...point.errors], phase: 'reading' };
  const report = () => options.onProgress({ ...progress, errors: [...progress.errors] });
  const addError = (at: { line: number; element?: number }, reason: string) => {
    progress.rejected++;
    if (progress.errors.length < maxListedErrors) progress.errors.push(at.element === undefined ? { line: at.line, reason } : { line: at.line, element: at.element, reason });
  };

  if (mode === 'replace' && !previous) {
    // The temporary index starts with the target's configuration; a target that doesn't exist yet has none.
    try {
      const { taskID } = await client.operationIndex({ indexName, operationIndexParams: { operation: 'copy', destination: point.writeIndex, scope: ['settings', 'synonyms', 'rules'] } });
      await client.waitForTask({ indexName, taskID });
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }
  writeResumePoint(file, point);

  let batch: Pending[] = [];
  let batchBytes = 0;
  let lastTask: number | undefined;

  /** Sends the batch; `through`: every line (JSON array: element) up to it has been read and counted (where a resume starts after). */
  const send = async (through: number) => {
    if (batch.length === 0) return;
    const requests: BatchRequest[] = batch.map(({ record }) => (typeof record.objectID === 'string' ? { action: 'updateObject', body: record } : { action: 'addObject', body: record }));
    try {
      lastTask = await sendWithRetry(client, point.writeIndex, requests);
      progress.imported += batch.length;
      progress.accepted += batch.length;
    } catch (error) {
      // The server refuses a whole batch for one bad record: send them one by one to list which.
      if (statusOf(error) < 400 || statusOf(error) >= 500 || statusOf(error) === 403) throw error;
      for (let index = 0; index < batch.length; index++) {
        try {
          lastTask = await sendWithRetry(client, point.writeIndex, [requests[index]]);
          progress.imported += 1;
          progress.accepted += 1;
        } catch (single) {
          if (statusOf(single) < 400 || statusOf(single) >= 500 || statusOf(single) === 403) throw single;
          addError(batch[index], single instanceof Error ? single.message : String(single));
        }
      }
    }
    progress.lastLine = through;
    const { read, sent, accepted, rejected } = progress;
    writeResumePoint(file, { ...point, lastLine: through, imported: progress.imported, errors: progress.errors, counts: { read, sent, accepted, rejected } });
    batch = [];
    batchBytes = 0;
    report();
  };

  const bytes = counting(file.stream(), (n) => {
    progress.bytesRead += n;
  });
  let lastRead = point.lastLine;
  for await (const item of readItems(format, bytes, { replaceInvalidUtf8: options.replaceInvalidUtf8 })) {
    options.signal?.throwIfAborted();
    // Where a resume starts: the line, or in a JSON array the element (several may share a line).
    const at = item.element ?? item.line;
    if (at <= point.lastLine) continue;
    progress.read++;
    if ('error' in item) {
      lastRead = at;
      addError(item, item.error);
      continue;
    }
    const size = JSON.stringify(item.record).length;
    // Every line before this record has been read and counted: an import stopped later resumes after them.
    if (batch.length > 0 && (batch.length >= maxBatchRecords || batchBytes + size > maxBatchBytes)) await send(at - 1);
    batch.push({ line: item.line, element: item.element, record: item.record, bytes: size });
    batchBytes += size;
    progress.sent++;
    lastRead = at;
  }
  await send(lastRead);

  progress.phase = 'publishing';
  report();
  if (mode === 'replace') {
    if (lastTask !== undefined) await client.waitForTask({ indexName: point.writeIndex, taskID: lastTask });
    const { taskID } = await client.operationIndex({ indexName: point.writeIndex, operationIndexParams: { operation: 'move', destination: indexName } });
    await publish(client, indexName, taskID, `Import ${file.name} (replace all)`);
  } else if (lastTask !== undefined) {
    await publish(client, indexName, lastTask, `Import ${file.name}`);
  }
  writeResumePoint(file, undefined);
  progress.phase = 'done';
  progress.bytesRead = file.size;
  report();
  return progress;
}
