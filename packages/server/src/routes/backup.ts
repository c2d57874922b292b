/**
 * `POST /1/vitrine/backup` (Vitrine extension, admin key only): a consistent copy of the data folder, written by
 * this server into a folder on its own machine (`storage/backup.ts`), body `{ "to": "/absolute/path" }`.
 *
 * The answer is a stream of JSON lines: `started`, `snapshot` (the task the copy holds), `progress` every few
 * seconds (a proxy or client waiting for minutes without a byte would give up), then `done` with the report
 * (per-index record counts at that task) or `failed` with `{ message, status }`. What can be refused before the
 * copy starts (a missing or unusable target, a backup already under way, a stopping server) is an ordinary
 * 4xx/503 answer. A client that goes away stops the backup, as does the server closing; either way the target
 * is left as it was.
 */
import { PassThrough } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerConfig } from '../config.ts';
import { ApiError, createError } from '../errors.ts';
import { abandonBackup, BackupRefused, prepareBackupTarget, snapshotIndexes, writeBackup } from '../storage/backup.ts';
import type { BackupIndex, BackupTarget } from '../storage/backup.ts';
import type { RouteDeps } from './deps.ts';

/** Between two lines of the answer at most. */
const PROGRESS_EVERY_MS = 5_000;

type BackupStepHook = NonNullable<ServerConfig['onBackupStep']>;

export function backupRoutes(api: FastifyInstance, deps: RouteDeps, onStep?: BackupStepHook): void {
  let under: string | null = null;
  const running = new Set<AbortController>();
  // A stopping server does not wait for a copy that may take minutes: it stops it (the target stays as it was).
  api.addHook('preClose', async () => {
    for (const controller of running) controller.abort(createError('SHUTTING_DOWN'));
  });

  api.post('/1/vitrine/backup', { compress: false }, async (request, reply) => {
    const to = (request.body as { to?: unknown } | null)?.to;
    if (typeof to !== 'string' || to.trim() === '') throw createError('MISSING_PARAMETER', 'to (the folder to write the backup to: an absolute path on the server’s machine)');
    if (under !== null) throw createError('BACKUP_UNDER_WAY', under);
    under = to;
    let target: BackupTarget;
    try {
      target = await prepareBackupTarget(deps.store.dataDir, to);
    } catch (error) {
      under = null;
      throw error instanceof BackupRefused ? createError('BACKUP_REFUSED', to, error.message) : error;
    }
    const controller = new AbortController();
    running.add(controller);
    const out = new PassThrough();
    reply.raw.once('close', () => {
      if (!reply.raw.writableFinished) controller.abort(new Error('the connection to the client closed'));
    });
    void backUp(deps, target, out, controller.signal, request, onStep).finally(() => {
      under = null;
      running.delete(controller);
      out.end();
    });
    // Not kept alive after: a server stopping mid-backup would otherwise wait for the client to drop the socket.
    return reply.type('application/x-ndjson').header('cache-control', 'no-store').header('connection', 'close').send(out);
  });
}

async function backUp(deps: RouteDeps, target: BackupTarget, out: PassThrough, signal: AbortSignal, request: FastifyRequest, onStep?: BackupStepHook): Promise<void> {
  const line = (value: Record<string, unknown>) => out.write(`${JSON.stringify(value)}\n`);
  line({ event: 'started', to: target.dir, replacing: target.replacing, notes: target.notes });
  let bytes = 0;
  const keepAlive = setInterval(() => line({ event: 'progress', bytes }), PROGRESS_EVERY_MS);
  let release = (): void => {};
  try {
    const pinned = await pinWithCounts(deps);
    release = pinned.release;
    signal.throwIfAborted();
    line({ event: 'snapshot', taskID: pinned.seq });
    const report = await writeBackup(
      { dataDir: deps.store.dataDir, db: deps.store.db, snapshotSeq: pinned.seq, beforeInsightsCopy: () => deps.insights.flushSearches() },
      target,
      pinned.indexes,
      { signal, onProgress: (copied) => (bytes = copied), beforeCommit: onStep && (() => onStep('copied', signal)) },
    );
    line({ event: 'done', ...report });
  } catch (error) {
    await abandonBackup(target).catch(() => {});
    line({ event: 'failed', ...(signal.aborted ? interrupted(signal.reason) : failure(error, request)) });
  } finally {
    release();
    clearInterval(keepAlive);
  }
}

/**
 * The pinned snapshot and each index's records in it. A snapshot written before manifests recorded counts, with
 * nothing applied since, has the counts the indexes have now: read, and kept only if still nothing was applied
 * meanwhile; otherwise a second try writes a snapshot of its own (with counts).
 */
async function pinWithCounts({ store, reads }: RouteDeps): Promise<{ seq: number; release: () => void; indexes: BackupIndex[] }> {
  for (let attempt = 1; ; attempt++) {
    const pinned = await store.pinSnapshot();
    try {
      const indexes = await snapshotIndexes(store.dataDir, pinned.seq);
      if (attempt === 2 || indexes.every((index) => index.records !== null)) return { ...pinned, indexes };
      const unchanged = () => store.taskStatus(pinned.seq + 1) !== 'published';
      if (unchanged()) {
        const sizes = await reads.read({ kind: 'sizes', indexNames: indexes.map((index) => index.name) });
        if (unchanged()) return { ...pinned, indexes: indexes.map((index, i) => ({ ...index, records: sizes[i].entries })) };
      }
    } catch (error) {
      pinned.release();
      throw error;
    }
    pinned.release();
  }
}

/** A backup stopped by the server closing (its catalogue error) or by the client leaving. */
function interrupted(reason: unknown): { message: string; status: number } {
  if (reason instanceof ApiError) return { message: reason.message, status: reason.status };
  return { message: `interrupted: ${reason instanceof Error ? reason.message : String(reason)}`, status: 499 };
}

/**
 * Why a backup failed, for the caller: the catalogue's errors and the file system's (a full disk, a folder
 * that became unwritable) say so; anything else is an internal error, logged under an id.
 */
function failure(error: unknown, request: FastifyRequest): { message: string; status: number; id?: string } {
  if (error instanceof ApiError && error.status !== 500) return { message: error.message, status: error.status };
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return { message: `the copy failed: ${(error as Error).message}`, status: 500 };
  const id = randomUUID();
  request.log.error({ err: error, errorId: id }, 'backup failed');
  if (!request.log.level || request.log.level === 'silent') console.error(`Backup failed (${id}):`, error);
  return { message: 'Internal error', status: 500, id };
}
