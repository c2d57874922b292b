/**
 * `POST /1/vitrine/backup` over a socket: what it refuses, and what an interruption leaves. The server killed
 * with SIGKILL half way, a client that leaves, a server that stops: the served data and an earlier backup at the
 * target stay as they were, and the next backup tidies up what was left. (The copy's consistency under a write
 * load is checked through the command, `packages/cli/src/commands/backup.test.ts`.)
 */
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/index.ts';
import { ADMIN_KEY, APP_ID, removeDir, SEARCH_KEY, spawnServer, startTestServer, tempDir } from '../src/test-support.ts';

type Line = { event: string; [key: string]: unknown };

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function folder(prefix: string): string {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return dir;
}

function headers(key = ADMIN_KEY): Record<string, string> {
  return { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key, 'content-type': 'text/plain' };
}

/** A backup request: its status and the lines it answered (a refusal's body as one line), read to the end. */
async function backup(url: string, to: unknown, options: { key?: string; signal?: AbortSignal; onLine?: (line: Line) => void } = {}): Promise<{ status: number; lines: Line[] }> {
  const response = await fetch(`${url}/1/vitrine/backup`, { method: 'POST', headers: headers(options.key), body: JSON.stringify({ to }), signal: options.signal });
  const lines: Line[] = [];
  let pending = '';
  const reader = response.body!.getReader();
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      pending += Buffer.from(chunk.value).toString();
      for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
        lines.push(JSON.parse(pending.slice(0, end)) as Line);
        options.onLine?.(lines[lines.length - 1]);
        pending = pending.slice(end + 1);
      }
    }
  } catch {
    // Cut off (the server killed, the request aborted): the lines so far.
  }
  if (pending.trim() !== '') lines.push(JSON.parse(pending) as Line);
  return { status: response.status, lines };
}

/** Every file under `dir` with its size and hash: equal before and after means untouched. */
function contents(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    files.set(path.slice(dir.length + 1), entry.isFile() ? `${statSync(path).size} ${createHash('sha256').update(readFileSync(path)).digest('hex')}` : 'folder');
  }
  return files;
}

async function addRecords(url: string, from: number, count: number): Promise<void> {
  const requests = Array.from({ length: count }, (_, i) => ({ action: 'addObject', body: { objectID: `r${from + i}`, name: `record ${from + i}` } }));
  const response = await fetch(`${url}/1/indexes/products/batch`, { method: 'POST', headers: headers(), body: JSON.stringify({ requests }) });
  const { taskID } = (await response.json()) as { taskID: number };
  // Published, so that the count read afterwards includes it.
  await expect.poll(async () => ((await (await fetch(`${url}/1/indexes/products/task/${taskID}`, { headers: headers() })).json()) as { status: string }).status).toBe('published');
}

async function nbHits(url: string): Promise<number> {
  const response = await fetch(`${url}/1/indexes/products/query`, { method: 'POST', headers: headers(SEARCH_KEY), body: JSON.stringify({ query: '' }) });
  return ((await response.json()) as { nbHits: number }).nbHits;
}

/** Resolves when the child server says its backup waits before being marked complete. */
function paused(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      if (!chunk.toString().includes('BACKUP PAUSED')) return;
      child.stdout!.off('data', onData);
      resolve();
    };
    child.stdout!.on('data', onData);
  });
}

describe('an interrupted backup', () => {
  it('leaves the served data and the earlier backup as they were (SIGKILL of the server, a client leaving); the next backup tidies up', { timeout: 120_000 }, async () => {
    const root = folder('vitrine-backup-kill-');
    const dataDir = join(root, 'data');
    const target = join(root, 'backups', 'shop');
    mkdirSync(dirname(target));
    const pause = join(root, 'pause');
    const env = { VITRINE_DATA_DIR: dataDir, VITRINE_SEARCH_THREADS: '1', VITRINE_BACKUP_PAUSE_FILE: pause };
    let server = await spawnServer(env);
    try {
      await addRecords(server.url, 0, 300);
      const first = await backup(server.url, target);
      expect(first.lines.at(-1)).toMatchObject({ event: 'done', indexes: [{ name: 'products', records: 300 }] });
      const earlier = contents(target);
      await addRecords(server.url, 300, 100);

      // Killed once the copy is written, before it is marked complete.
      writeFileSync(pause, '');
      const waiting = paused(server.child);
      const cut = backup(server.url, target);
      await waiting;
      await server.kill();
      expect((await cut).lines.map((line) => line.event)).toEqual(['started', 'snapshot']);
      expect(contents(target)).toEqual(earlier);
      expect(existsSync(join(dirname(target), '.shop.partial'))).toBe(true);

      // Restarted: every acknowledged record is served. A client leaving mid-way stops the backup, and the server
      // removes what it wrote.
      server = await spawnServer(env);
      expect(await nbHits(server.url)).toBe(400);
      const leaving = new AbortController();
      const waitingAgain = paused(server.child);
      const left = backup(server.url, target, { signal: leaving.signal });
      await waitingAgain;
      leaving.abort();
      await left;
      await expect.poll(() => existsSync(join(dirname(target), '.shop.partial'))).toBe(false);
      expect(contents(target)).toEqual(earlier);

      rmSync(pause);
      const next = await backup(server.url, target);
      expect(next.lines[0]).toMatchObject({ event: 'started', replacing: true, notes: [] });
      expect(next.lines.at(-1)).toMatchObject({ event: 'done', indexes: [{ name: 'products', records: 400 }] });
      expect(readdirSync(dirname(target))).toEqual(['shop']);
    } finally {
      await server.kill();
    }
    // The backup is a data folder a server serves as it is.
    const restored = await startServer({ dataDir: target, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY, port: 0 });
    try {
      expect(await nbHits(restored.url)).toBe(400);
    } finally {
      await restored.close();
    }
  });

  it('puts back an earlier backup left aside by a crash between the two renames', async () => {
    const server = await startTestServer({ index: { name: 'products', settings: {}, records: [{ objectID: 'a', name: 'a' }] } });
    try {
      const root = folder('vitrine-backup-swap-');
      const target = join(root, 'shop');
      expect((await backup(server.url, target)).lines.at(-1)).toMatchObject({ event: 'done' });
      // As a crash right after the first rename leaves it.
      renameSync(target, join(root, '.shop.previous'));
      const next = await backup(server.url, target);
      expect(next.lines[0]).toMatchObject({ replacing: true, notes: [`put back the earlier backup an interrupted run had moved to ${join(root, '.shop.previous')}`] });
      expect(next.lines.at(-1)).toMatchObject({ event: 'done' });
      expect(readdirSync(root)).toEqual(['shop']);
    } finally {
      await server.close();
    }
  });
});

describe('what a backup refuses', () => {
  it('answers 4xx, with Algolia\'s body, for what can be refused before it starts; the target untouched', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let stepReached = () => {};
    const reached = new Promise<void>((resolve) => (stepReached = resolve));
    const server = await startTestServer({
      config: {
        onBackupStep: async (_step, signal) => {
          stepReached();
          await new Promise<void>((resolve) => {
            void held.then(resolve);
            signal.addEventListener('abort', () => resolve(), { once: true });
          });
        },
      },
      index: { name: 'products', settings: {}, records: [{ objectID: 'a', name: 'a' }] },
    });
    try {
      const root = folder('vitrine-backup-refused-');
      const refused = async (to: unknown, key?: string) => {
        const { status, lines } = await backup(server.url, to, { key });
        return { status, body: lines[0] };
      };
      expect(await refused(join(root, 'x'), SEARCH_KEY)).toEqual({ status: 403, body: { message: 'Method not allowed with this API key', status: 403 } });
      expect((await refused(undefined)).status).toBe(400);
      expect(await refused('relative/path')).toEqual({ status: 400, body: { message: 'Cannot back up to relative/path: the path must be absolute (a folder on the server’s machine)', status: 400 } });
      expect((await refused(server.dataDir)).body.message).toContain('it is the data folder');
      expect((await refused(join(server.dataDir, 'inside'))).body.message).toContain('it is the data folder');
      expect((await refused(join(root, 'missing', 'shop'))).body.message).toBe(`Cannot back up to ${join(root, 'missing', 'shop')}: its parent folder ${join(root, 'missing')} does not exist`);
      writeFileSync(join(root, 'file'), 'x');
      expect((await refused(join(root, 'file'))).body.message).toContain('it is a file');
      expect((await refused('/proc/vitrine-backup')).body.message).toMatch(/^Cannot back up to \/proc\/vitrine-backup: \/proc is not writable \(E[A-Z]+\)$/);
      const busy = join(root, 'busy');
      mkdirSync(busy);
      writeFileSync(join(busy, 'notes.txt'), 'mine');
      expect(await refused(busy)).toEqual({ status: 400, body: { message: `Cannot back up to ${busy}: the folder is not empty and holds no complete Vitrine backup (no backup.json): choose another folder, or empty this one`, status: 400 } });
      expect(readdirSync(busy)).toEqual(['notes.txt']);
      expect(readdirSync(root).sort()).toEqual(['busy', 'file']);

      // One at a time; and a server that stops ends the one under way, the target as it was.
      const first = backup(server.url, join(root, 'shop'));
      await reached;
      expect(await refused(join(root, 'other'))).toEqual({ status: 409, body: { message: `A backup is already under way (to ${join(root, 'shop')}): wait for it to end`, status: 409 } });
      const closed = server.close();
      expect((await first).lines.at(-1)).toEqual({ event: 'failed', message: 'The server is shutting down', status: 503 });
      release();
      await closed;
      expect(readdirSync(root).sort()).toEqual(['busy', 'file']);
    } finally {
      release();
      await server.close();
    }
  });

  it('refuses a folder a server has run on, even one restored from a backup', async () => {
    const server = await startTestServer({ index: { name: 'products', settings: {}, records: [{ objectID: 'a', name: 'a' }] } });
    const target = join(folder('vitrine-backup-used-'), 'shop');
    try {
      expect((await backup(server.url, target)).lines.at(-1)).toMatchObject({ event: 'done' });
    } finally {
      await server.close();
    }
    const restored = await startServer({ dataDir: target, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY, port: 0 });
    try {
      expect(existsSync(join(target, 'backup.json'))).toBe(false);
      const again = await startTestServer();
      try {
        expect((await backup(again.url, target)).lines[0].message).toContain('holds no complete Vitrine backup');
      } finally {
        await again.close();
      }
    } finally {
      await restored.close();
    }
  });
});
