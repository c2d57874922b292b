/**
 * `vitrine backup` against a real server on loopback, with real files.
 *
 * Consistency: two writers send batches (records added to one index, replaced and deleted in another) while the
 * backup runs. Every write is recorded with its task ID, so the state at the backup's task is known exactly:
 * the writes up to it applied in task order to the starting records (the same model, with every write, must
 * give the source's final state). The backup, served by a new server, must hold exactly that: record counts and
 * checksums (`sync/checksum.ts`) per index, as the command printed them. A probe searches meanwhile.
 *
 * Then the command's answers to bad input, and the command killed with SIGKILL half way.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { demoSettings, generateProducts } from '@vitrine/demo';
import { startServer } from '@vitrine/server';
import type { RunningServer, ServerConfig } from '@vitrine/server';
import { createApiClient } from '../importer/client.ts';
import type { ApiClient } from '../importer/client.ts';
import type { StoredRecord } from '../importer/index-content.ts';
import { ChecksumAccumulator, fingerprint } from '../sync/checksum.ts';
import type { IndexFingerprint } from '../sync/checksum.ts';
import { runCli, tempDir } from '../testing.ts';

const APP_ID = 'backup-app';
const ADMIN_KEY = 'backup-admin-key-0123456789abcdef';
const SEARCH_KEY = 'backup-search-key-0123456789abcde';
const bin = fileURLToPath(new URL('../../bin/vitrine.js', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function folder(): string {
  const dir = tempDir('vitrine-cli-backup-');
  dirs.push(dir);
  return dir;
}

async function serve(dataDir: string, config: Partial<ServerConfig> = {}): Promise<{ server: RunningServer; client: ApiClient; env: Record<string, string> }> {
  const server = await startServer({ dataDir, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY, host: '127.0.0.1', port: 0, ...config });
  const env = { VITRINE_URL: server.url, VITRINE_APP_ID: APP_ID, VITRINE_ADMIN_API_KEY: ADMIN_KEY };
  return { server, client: createApiClient({ url: server.url, appId: APP_ID, apiKey: ADMIN_KEY }), env };
}

type Write = { taskID: number; indexName: string; requests: Array<{ action: 'addObject' | 'updateObject' | 'deleteObject'; body: StoredRecord | { objectID: string } }> };

/** The indexes' records after `writes` (in task order) over `start`. */
function stateAfter(start: Map<string, Map<string, StoredRecord>>, writes: Write[]): Map<string, Map<string, StoredRecord>> {
  const state = new Map([...start].map(([name, records]) => [name, new Map(records)]));
  for (const write of [...writes].sort((a, b) => a.taskID - b.taskID)) {
    const records = state.get(write.indexName) ?? new Map<string, StoredRecord>();
    state.set(write.indexName, records);
    for (const { action, body } of write.requests) {
      if (action === 'deleteObject') records.delete(body.objectID);
      else records.set(body.objectID, body as StoredRecord);
    }
  }
  return state;
}

function fingerprintOf(records: Map<string, StoredRecord>): IndexFingerprint {
  const accumulator = new ChecksumAccumulator();
  for (const record of records.values()) accumulator.add(record);
  return accumulator.result();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function search(url: string): Promise<Response> {
  return fetch(`${url}/1/indexes/products/query`, { method: 'POST', headers: { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY }, body: JSON.stringify({ query: 'lamp' }) }).then(async (response) => {
    await response.arrayBuffer();
    return response;
  });
}

/** A search every `everyMs` until `until` settles: each one's latency (ms). */
async function probe(url: string, until: Promise<unknown>, everyMs: number): Promise<number[]> {
  let done = false;
  void until.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const began = performance.now();
    expect((await search(url)).status).toBe(200);
    latencies.push(performance.now() - began);
    await sleep(everyMs);
  }
  return latencies;
}

function spread(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `${values.length} searches, p50 ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`;
}

describe('vitrine backup during a write load', () => {
  it('holds exactly the writes up to its task, in a folder a server serves as it is; searches answered meanwhile', { timeout: 180_000 }, async () => {
    const root = folder();
    const { server, client, env } = await serve(join(root, 'data'), { searchThreads: 1 });
    try {
      const products = [...generateProducts(3000, 11)].map((product) => JSON.parse(JSON.stringify(product)) as StoredRecord);
      await client.waitForTask({ indexName: 'products', taskID: (await client.setSettings({ indexName: 'products', indexSettings: demoSettings as never })).taskID });
      await client.waitForTask({ indexName: 'products', taskID: (await client.saveObjects({ indexName: 'products', objects: products }))[0].taskID });
      const start = new Map([['products', new Map(products.map((record) => [record.objectID, record]))]]);

      // Two writers, one batch in flight each, until told to stop.
      const writes: Write[] = [];
      const stop: { at?: number } = {};
      const writer = async (indexName: string, batch: (n: number) => Write['requests']) => {
        for (let n = 0; stop.at === undefined || writes.filter((w) => w.indexName === indexName && w.taskID > stop.at!).length < 3; n++) {
          const requests = batch(n);
          const { taskID } = await client.batch({ indexName, batchWriteParams: { requests } });
          writes.push({ taskID, indexName, requests });
        }
      };
      const loading = writer('load', (n) => Array.from({ length: 250 }, (_, i) => ({ action: 'addObject' as const, body: { objectID: `l${n}-${i}`, name: `loaded ${n} ${i}`, batch: n } })));
      const updating = writer('products', (n) => [
        ...Array.from({ length: 40 }, (_, i) => ({ action: 'updateObject' as const, body: { ...products[(n * 41 + i * 7) % products.length], price: n + i / 100, version: n } })),
        ...Array.from({ length: 4 }, (_, i) => ({ action: 'deleteObject' as const, body: { objectID: products[(n * 13 + i * 577) % products.length].objectID } })),
      ]);
      await expect.poll(() => writes.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(6);

      // A shopper searches meanwhile: answered all along.
      let backingUp = true;
      const probes: number[] = [];
      const probing = (async () => {
        while (backingUp) probes.push((await search(server.url)).status);
      })();
      const target = join(root, 'backup');
      const run = await runCli(['backup', '--to', target], { env });
      backingUp = false;
      await probing;
      expect(probes.length).toBeGreaterThan(0);
      expect(probes.every((status) => status === 200)).toBe(true);
      expect(run.stderr).toContain(`Backing up ${server.url} to ${target}…`);
      expect(run.code).toBe(0);
      const taskID = Number(/every write up to task (\d+), none after/.exec(run.stdout)?.[1]);
      stop.at = taskID;
      await Promise.all([loading, updating]);
      await client.waitForTask({ indexName: 'load', taskID: Math.max(...writes.map((w) => w.taskID)) });

      // The model is right: with every write, it is the source's final state.
      const final = stateAfter(start, writes);
      for (const indexName of ['products', 'load']) expect(await fingerprint(client, indexName, 1000)).toEqual(fingerprintOf(final.get(indexName)!));
      // Writes went on during the backup, on both sides of its task.
      expect(writes.some((w) => w.taskID < taskID) && writes.some((w) => w.taskID > taskID)).toBe(true);

      const atTask = stateAfter(start, writes.filter((w) => w.taskID <= taskID));
      for (const indexName of ['products', 'load']) {
        expect(run.stdout).toMatch(new RegExp(`\\n  ${indexName} +${new Intl.NumberFormat('en-US').format(atTask.get(indexName)!.size)} records\\n`));
      }
      const restored = await serve(target, { searchThreads: 1 });
      try {
        for (const indexName of ['products', 'load']) expect(await fingerprint(restored.client, indexName, 1000)).toEqual(fingerprintOf(atTask.get(indexName)!));
        expect(await restored.client.getSettings({ indexName: 'products' })).toMatchObject({ customRanking: demoSettings.customRanking });
      } finally {
        await restored.server.close();
      }
    } finally {
      await server.close();
    }
  });
});

describe('vitrine backup and searches', () => {
  it('keeps a shopper\'s search fast while it writes its snapshot and copies the folder', { timeout: 180_000 }, async () => {
    const root = folder();
    const { server, client, env } = await serve(join(root, 'data'), { searchThreads: 1 });
    try {
      const products = [...generateProducts(20_000, 5)];
      await client.waitForTask({ indexName: 'products', taskID: (await client.setSettings({ indexName: 'products', indexSettings: demoSettings as never })).taskID });
      await client.waitForTask({ indexName: 'products', taskID: (await client.saveObjects({ indexName: 'products', objects: products })).at(-1)!.taskID });
      // Written since the last snapshot: the backup writes one.
      await client.waitForTask({ indexName: 'products', taskID: (await client.saveObjects({ indexName: 'products', objects: products.slice(0, 1000) }))[0].taskID });
      await search(server.url);
      const before = await probe(server.url, sleep(2000), 5);
      const began = performance.now();
      const backup = runCli(['backup', '--to', join(root, 'backup')], { env });
      const during = await probe(server.url, backup, 5);
      const { code, stdout } = await backup;
      expect(code).toBe(0);
      const took = (performance.now() - began).toFixed(0);
      process.stdout.write(`a search every 5 ms: before the backup ${spread(before)}; during it (${took} ms, ${/\(([\d.]+ [KM]B)\)/.exec(stdout)?.[1]}) ${spread(during)}\n`);
      // Answered throughout, at about their usual speed: the backup never holds the server for long (this
      // machine's own noise is the baseline's maximum).
      expect(during.length).toBeGreaterThanOrEqual(10);
      expect([...during].sort((a, b) => a - b)[Math.floor(during.length / 2)]).toBeLessThan(50);
      expect(Math.max(...during)).toBeLessThan(Math.max(...before) + 100);
    } finally {
      await server.close();
    }
  });
});

describe('vitrine backup: bad input and interruptions', () => {
  it('says what is wrong, and leaves the target as it was', { timeout: 60_000 }, async () => {
    const root = folder();
    const { server, client, env } = await serve(join(root, 'data'));
    try {
      await client.waitForTask({ indexName: 'products', taskID: (await client.saveObjects({ indexName: 'products', objects: [{ objectID: 'a', name: 'a' }] }))[0].taskID });
      expect(await runCli(['backup'], { env })).toMatchObject({ code: 2, stderr: expect.stringContaining('--to is required') });
      const busy = join(root, 'busy');
      mkdirSync(busy);
      writeFileSync(join(busy, 'notes.txt'), 'mine');
      const refused = await runCli(['backup', '--to', 'busy'], { env, cwd: root });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(`Error: Backup refused (HTTP 400): Cannot back up to ${busy}: the folder is not empty and holds no complete Vitrine backup (no backup.json): choose another folder, or empty this one\n`);
      expect(readdirSync(busy)).toEqual(['notes.txt']);
      const wrongKey = await runCli(['backup', '--to', join(root, 'shop'), '--api-key', 'not-the-key'], { env });
      expect(wrongKey.stderr).toMatch(/^Error: The server refused the key \(HTTP 403: Invalid Application-ID or API key\): a backup needs the admin key/);
      const closedPort = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const { port } = probe.address() as AddressInfo;
          probe.close(() => resolve(port));
        });
      });
      const down = await runCli(['backup', '--to', join(root, 'shop'), '--url', `http://127.0.0.1:${closedPort}`], { env });
      expect(down).toMatchObject({ code: 1, stderr: `Error: No answer from http://127.0.0.1:${closedPort} (ECONNREFUSED): is the server running? Start it, or pass --url\n` });
      expect(existsSync(join(root, 'shop'))).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('killed with SIGKILL half way: the server stops the copy, the earlier backup stays as it was', { timeout: 60_000 }, async () => {
    const root = folder();
    let hold = false;
    let reached = () => {};
    const { server, client, env } = await serve(join(root, 'data'), {
      onBackupStep: async (_step, signal) => {
        if (!hold) return;
        reached();
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      },
    });
    try {
      await client.waitForTask({ indexName: 'products', taskID: (await client.saveObjects({ indexName: 'products', objects: [{ objectID: 'a', name: 'a' }] }))[0].taskID });
      const target = join(root, 'shop');
      expect((await runCli(['backup', '--to', target], { env })).code).toBe(0);
      const earlier = readdirSync(target, { recursive: true }).sort();
      await client.waitForTask({ indexName: 'products', taskID: (await client.saveObjects({ indexName: 'products', objects: [{ objectID: 'b', name: 'b' }] }))[0].taskID });

      hold = true;
      const held = new Promise<void>((resolve) => (reached = resolve));
      const child = spawn(process.execPath, ['--conditions=source', bin, 'backup', '--to', target], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'ignore' });
      await held;
      child.kill('SIGKILL');
      await expect.poll(() => existsSync(join(root, '.shop.partial'))).toBe(false);
      expect(readdirSync(target, { recursive: true }).sort()).toEqual(earlier);
      hold = false;
      const next = await runCli(['backup', '--to', target], { env });
      expect(next.stdout).toMatch(/\n {2}products {2}2 records\n/);
    } finally {
      hold = false;
      await server.close();
    }
  });
});
