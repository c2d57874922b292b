/**
 * `vitrine sync` between two real servers on loopback: a full copy (records, settings, replicas, synonyms, rules
 * when the server has them, Recommend rules) answering every query the same on both sides, a sync stopped by Ctrl+C and then by
 * kill -9 that resumes to the same end, a destination that refuses records (a mismatch, exit 1), and wrong
 * credentials refused cleanly.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoReplicaSettings, demoSettings, generateProducts } from '@vitrine/demo';
import { apiStatus } from '../errors.ts';
import type { ApiClient } from '../importer/client.ts';
import { listRules, listSynonyms } from '../importer/index-content.ts';
import { listRecommendRules, saveRecommendRules } from '../importer/recommend-rules.ts';
import { allRecords, runCli, startTestServer, tempDir } from '../testing.ts';
import type { TestServer } from '../testing.ts';

const bin = fileURLToPath(new URL('../../bin/vitrine.js', import.meta.url));
const dir = tempDir();
let source: TestServer;
let destination: TestServer;
/** Whether the source server answers Algolia's rules API (it may not have it yet): the rule test adapts. */
let rulesSupported = false;

const products = [...generateProducts(1500, 7)];
const replicaNames = Object.keys(demoReplicaSettings);

type ClientSettings = Parameters<ApiClient['setSettings']>[0]['indexSettings'];

async function settle(client: ApiClient, indexName: string, task: Promise<{ taskID?: number }>): Promise<void> {
  const { taskID } = await task;
  if (taskID === undefined) throw new Error(`No task to wait for on "${indexName}"`);
  await client.waitForTask({ indexName, taskID });
}

async function seedShop(client: ApiClient, indexName: string, records: Array<Record<string, unknown>>): Promise<void> {
  await settle(client, indexName, client.setSettings({ indexName, indexSettings: demoSettings as ClientSettings }));
  for (const [replica, settings] of Object.entries(demoReplicaSettings)) await settle(client, replica, client.setSettings({ indexName: replica, indexSettings: settings as ClientSettings }));
  await settle(client, indexName, client.saveSynonyms({
    indexName,
    synonymHit: [
      { objectID: 'sofa', type: 'synonym', synonyms: ['sofa', 'couch', 'settee'] },
      { objectID: 'tv', type: 'onewaysynonym', input: 'tv', synonyms: ['television'] },
    ],
  }));
  await client.saveObjects({ indexName, objects: records, waitForTasks: true });
}

const syncArgs = (...extra: string[]) => ['sync', '--to-url', destination.url, '--to-app-id', destination.appId, ...extra];
/** The source's environment, with the destination's key where the command reads it. */
const syncEnv = (key = destination.adminApiKey) => ({ ...source.env, VITRINE_SYNC_API_KEY: key });

beforeAll(async () => {
  source = await startTestServer({ appId: 'source-app', adminApiKey: 'source-admin-key' });
  destination = await startTestServer({ appId: 'destination-app', adminApiKey: 'destination-admin-key' });
  await seedShop(source.client, 'products', products);
  await source.client.saveObjects({ indexName: 'blog', objects: [{ objectID: 'p1', title: 'Choosing a <b>sofa</b>' }, { objectID: 'p2', title: 'Wallets' }], waitForTasks: true });
  try {
    await settle(source.client, 'products', source.client.saveRules({
      indexName: 'products',
      rules: [{ objectID: 'promote-1', conditions: [{ pattern: 'wallet', anchoring: 'contains' }], consequence: { promote: [{ objectID: '1', position: 0 }] } }],
    }));
    rulesSupported = true;
  } catch (error) {
    if (apiStatus(error) !== 404) throw error;
  }
  await saveRecommendRules(source.client, 'products', {
    'related-products': [{ objectID: 'pin-1', condition: { context: 'web' }, consequence: { promote: [{ objectID: '1', position: 0 }] } }],
    'trending-items': [{ objectID: 'cheap', consequence: { params: { filters: 'price < 80' } } }],
  });
  await saveRecommendRules(source.client, replicaNames[0], { 'bought-together': [{ objectID: 'on-replica', consequence: { hide: [{ objectID: '3' }] } }] });
  // The destination already has an older "products": the sync replaces it whole.
  await destination.client.saveObjects({ indexName: 'products', objects: [{ objectID: 'old-1', name: 'Old wallet' }], waitForTasks: true });
  await saveRecommendRules(destination.client, 'products', { 'related-products': [{ objectID: 'old' }], 'bought-together': [{ objectID: 'kept' }] });
}, 120_000);

afterAll(async () => {
  await source?.close();
  await destination?.close();
  rmSync(dir, { recursive: true, force: true });
});

const QUERIES = [
  { query: '' },
  { query: 'wallet' },
  { query: 'couch' },
  { query: 'red', filters: 'price < 80' },
  { query: 'palora', facetFilters: [['color:Red', 'color:Blue']] },
  { query: 'toys', page: 2 },
];

/** What a search answers, without timings: hits in order with their highlighting, counts, facets. */
async function answers(client: ApiClient, indexName: string) {
  const out = [];
  for (const params of QUERIES) {
    const { hits, nbHits, facets } = await client.searchSingleIndex({ indexName, searchParams: { ...params, facets: ['brand', 'color'], hitsPerPage: 10 } });
    out.push({ hits, nbHits, facets });
  }
  return out;
}

const settingsOf = (client: ApiClient, indexName: string) => client.getSettings({ indexName });

describe('vitrine sync --to-url', () => {
  it('copies every index with its settings, replicas and synonyms: the same answers on both sides', async () => {
    const state = join(dir, 'full.state.json');
    const run = await runCli(syncArgs('--state', state), { env: syncEnv(), cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^products\s+1,500\s+1,500\s+[0-9a-f]{16}\s+[0-9a-f]{16}\s+identical$/m);
    expect(run.stdout).toMatch(/^blog\s+2\s+2\s.*identical$/m);
    // Standard replicas are compared too (they hold their own copy of the records); the virtual one is not.
    expect(run.stdout).toMatch(/^products_price_asc\s+1,500\s+1,500\s.*identical$/m);
    expect(run.stdout).not.toMatch(/^products_relevant_price_asc/m);
    expect(existsSync(state)).toBe(false);

    for (const indexName of ['products', ...replicaNames, 'blog']) {
      expect(await answers(destination.client, indexName), indexName).toEqual(await answers(source.client, indexName));
      expect(await settingsOf(destination.client, indexName), indexName).toEqual(await settingsOf(source.client, indexName));
    }
    expect((await answers(destination.client, 'products'))[2].nbHits).toBeGreaterThan(0); // "couch" finds sofas: synonyms came along
    expect(await listSynonyms(destination.client, 'products')).toEqual(await listSynonyms(source.client, 'products'));
    expect(await allRecords(destination.client, 'products')).toEqual(await allRecords(source.client, 'products'));
    const { items } = await destination.client.listIndices();
    expect(items.map((item) => item.name).sort()).toEqual(['blog', 'products', ...replicaNames].sort());
  });

  it('copies rules when the source has the rules API, and syncs without them when it answers 404', async () => {
    const destinationRules = await listRules(destination.client, 'products');
    if (rulesSupported) {
      expect(destinationRules.map((rule) => rule.objectID)).toEqual(['promote-1']);
      expect(destinationRules).toEqual(await listRules(source.client, 'products'));
    } else {
      // Both sides lack the API: the sync above succeeded regardless, and reads the absence as "no rules".
      expect(destinationRules).toEqual([]);
      await expect(source.client.searchRules({ indexName: 'products', searchRulesParams: {} })).rejects.toMatchObject({ status: 404 });
    }
  });

  it("copies Recommend rules to each index's own name, model by model", async () => {
    const without = (rules: Array<{ _metadata?: unknown }> | undefined) => (rules ?? []).map(({ _metadata: _m, ...rule }) => rule);
    const copied = await listRecommendRules(destination.client, 'products');
    const original = await listRecommendRules(source.client, 'products');
    expect(without(copied['related-products'])).toEqual(without(original['related-products']));
    expect(without(copied['trending-items'])).toEqual(without(original['trending-items']));
    expect(copied['related-products']!.map((rule) => rule.objectID)).toEqual(['pin-1']);
    // A model without rules at the source is left as the destination had it.
    expect(copied['bought-together']!.map((rule) => rule.objectID)).toEqual(['kept']);
    expect((await listRecommendRules(destination.client, replicaNames[0]))['bought-together']!.map((rule) => rule.objectID)).toEqual(['on-replica']);
  });

  it('syncs again over a destination that has the replicas already, bringing the changes made since', async () => {
    await settle(source.client, 'products', source.client.deleteObject({ indexName: 'products', objectID: '2' }));
    await settle(source.client, 'products', source.client.partialUpdateObject({ indexName: 'products', objectID: '3', attributesToUpdate: { name: 'Renamed wallet' } }));
    await settle(source.client, 'products_price_asc', source.client.setSettings({ indexName: 'products_price_asc', indexSettings: { hitsPerPage: 7 } }));
    const run = await runCli(syncArgs('--index', 'products', '--state', join(dir, 'again.state.json')), { env: syncEnv(), cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^products\s+1,499\s+1,499\s.*identical$/m);
    expect(run.stdout).toMatch(/^products_price_desc\s+1,499\s+1,499\s.*identical$/m);
    for (const indexName of ['products', ...replicaNames]) {
      expect(await answers(destination.client, indexName), indexName).toEqual(await answers(source.client, indexName));
      expect(await settingsOf(destination.client, indexName), indexName).toEqual(await settingsOf(source.client, indexName));
    }
    expect((await settingsOf(destination.client, 'products_price_asc')).hitsPerPage).toBe(7);
    expect(await destination.client.getObject({ indexName: 'products', objectID: '3' })).toMatchObject({ name: 'Renamed wallet' });
  });

  it('--restart forgets an unfinished sync and deletes the temporary index it left', async () => {
    const state = join(dir, 'restart.state.json');
    const args = syncArgs('--index', 'products', '--batch-size', '100', '--state', state);
    const stop = new AbortController();
    stop.abort(); // Ctrl+C at once: the sync stops after its first page of records.
    const stopped = await runCli(args, { env: syncEnv(), cwd: dir, signal: stop.signal });
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain('Sync interrupted after 100 records of "products"');
    const temporaries = async () => (await destination.client.listIndices()).items.map((item) => item.name).filter((name) => name.includes('_sync_tmp_'));
    expect(await temporaries()).toHaveLength(1);

    const restarted = await runCli([...args, '--restart'], { env: syncEnv(), cwd: dir });
    expect(restarted.code, restarted.stderr).toBe(0);
    expect(restarted.stderr).not.toContain('Resuming');
    expect(restarted.stdout).toMatch(/^products\s+1,499\s+1,499\s.*identical$/m);
    expect(await temporaries()).toEqual([]);
    expect(existsSync(state)).toBe(false);
  });

  it('resumes after Ctrl+C and after kill -9, ends identical, and never shows a half-replaced index', async () => {
    const big = [...generateProducts(2500, 11)];
    await source.client.saveObjects({ indexName: 'big', objects: big, waitForTasks: true });
    await destination.client.saveObjects({ indexName: 'big', objects: [{ objectID: 'old-1', name: 'Old' }, { objectID: 'old-2', name: 'Older' }], waitForTasks: true });
    const state = join(dir, 'resume.state.json');
    const args = syncArgs('--index', 'big', '--batch-size', '20', '--state', state);
    const copied = () => (existsSync(state) ? (JSON.parse(readFileSync(state, 'utf8')).indices[0]?.[1]?.copied ?? 0) : 0);

    const first = spawnCli(args);
    await expect.poll(copied, { timeout: 20_000, interval: 5 }).toBeGreaterThanOrEqual(200);
    first.child.kill('SIGINT');
    expect(await first.exited).toEqual({ code: 1, signal: null });
    expect(first.output()).toMatch(/Sync interrupted after \d+ records of "big": run the same command again/);
    const afterInterrupt = copied();
    expect(afterInterrupt).toBeLessThan(big.length);

    const second = spawnCli(args);
    await expect.poll(copied, { timeout: 20_000, interval: 5 }).toBeGreaterThanOrEqual(afterInterrupt + 300);
    second.child.kill('SIGKILL');
    expect((await second.exited).signal).toBe('SIGKILL');
    expect(second.output()).toContain(`Resuming "big" after ${afterInterrupt} records`);
    const stopped = JSON.parse(readFileSync(state, 'utf8')).indices[0][1];
    expect(stopped.step).toBe('records');
    expect(stopped.copied).toBeLessThan(big.length);
    // Twice stopped midway, the destination's index is still the old one, whole.
    expect((await allRecords(destination.client, 'big')).map((record) => record.objectID)).toEqual(['old-1', 'old-2']);

    const last = await runCli(args, { env: syncEnv(), cwd: dir });
    expect(last.code, last.stderr).toBe(0);
    expect(last.stderr).toMatch(/Resuming "big" after \d+ records/);
    expect(last.stdout).toMatch(/^big\s+2,500\s+2,500\s.*identical$/m);
    expect(await allRecords(destination.client, 'big')).toEqual(await allRecords(source.client, 'big'));
    expect(await answers(destination.client, 'big')).toEqual(await answers(source.client, 'big'));
    const { items } = await destination.client.listIndices();
    expect(items.filter((item) => item.name.includes('_sync_tmp_'))).toEqual([]);
  }, 90_000);

  it('reports a destination that refuses records as a mismatch, with exit code 1', async () => {
    // A destination with hosted Algolia's 10 KB record limit, and a source record over it.
    const strict = await startTestServer({ appId: 'strict-app', adminApiKey: 'strict-admin-key', limits: { maxRecordBytes: 10 * 1024 } });
    try {
      const objects = [{ objectID: 'small', name: 'Small' }, { objectID: 'large', name: 'Large', notes: 'x'.repeat(20 * 1024) }];
      await source.client.saveObjects({ indexName: 'notes', objects, waitForTasks: true });
      const run = await runCli(['sync', '--to-url', strict.url, '--to-app-id', strict.appId, '--index', 'notes', '--state', join(dir, 'strict.json')], { env: syncEnv(strict.adminApiKey), cwd: dir });
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/^notes\s+2\s+1\s.*DIFFERENT$/m);
      expect(run.stderr).toMatch(/refused 1 record\(s\):\n\s+objectID "large"/);
      expect(run.stderr).toContain('1 of 1 indices differ');
      expect((await allRecords(strict.client, 'notes')).map((record) => record.objectID)).toEqual(['small']);
    } finally {
      await strict.close();
    }
  });
});

describe('vitrine sync: refused credentials', () => {
  const cleanFailure = (run: { code: number; stderr: string }, secret: string) => {
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain(secret);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  };

  it('a wrong destination key or app id: a clear message, exit 1, nothing written', async () => {
    const before = (await destination.client.listIndices()).items.length;
    const wrongKey = await runCli(['sync', '--to-url', destination.url, '--to-app-id', destination.appId, '--state', join(dir, 'w.json')], { env: syncEnv('not-the-right-key'), cwd: dir });
    cleanFailure(wrongKey, 'not-the-right-key');
    expect(wrongKey.stderr).toMatch(/^Error: The destination \(http:\/\/127\.0\.0\.1:\d+, application destination-app\) refused the application ID or API key \(HTTP 403\): check --to-url, --to-app-id and the destination's key \(VITRINE_SYNC_API_KEY or --to-api-key-file\)\n$/);

    const wrongApp = await runCli(['sync', '--to-url', destination.url, '--to-app-id', 'no-such-app', '--state', join(dir, 'w.json')], { env: syncEnv(), cwd: dir });
    cleanFailure(wrongApp, destination.adminApiKey);
    expect(wrongApp.stderr).toMatch(/refused the application ID or API key \(HTTP 403\)/);
    expect((await destination.client.listIndices()).items.length).toBe(before);
  });

  it('a wrong source key, and an unreachable destination', async () => {
    const wrongSource = await runCli(syncArgs('--state', join(dir, 'w.json')), { env: { ...syncEnv(), VITRINE_ADMIN_API_KEY: 'bad-source-key' }, cwd: dir });
    cleanFailure(wrongSource, 'bad-source-key');
    expect(wrongSource.stderr).toMatch(/The source \(.*\) refused the application ID or API key \(HTTP 403\)/);

    const unreachable = await runCli(['sync', '--to-url', 'http://127.0.0.1:9', '--to-app-id', 'x', '--state', join(dir, 'w.json')], { env: syncEnv('secret-key-9'), cwd: dir });
    cleanFailure(unreachable, 'secret-key-9');
    expect(unreachable.stderr).toMatch(/Cannot reach the destination \(http:\/\/127\.0\.0\.1:9/);
  });
});

describe("vitrine sync: the destination's key, never on the command line", () => {
  const keyFile = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content, { mode: 0o600 });
    return path;
  };

  it('reads it from a file given with --to-api-key-file', async () => {
    const run = await runCli(syncArgs('--index', 'blog', '--to-api-key-file', keyFile('key.txt', `${destination.adminApiKey}\n`), '--state', join(dir, 'file.json')), { env: source.env, cwd: dir });
    expect(run.code).toBe(0);
    expect(await allRecords(destination.client, 'blog')).toEqual(await allRecords(source.client, 'blog'));
  });

  it('refuses --to-api-key, saying why and what to use, without echoing the key', async () => {
    const run = await runCli(syncArgs('--to-api-key', 'typed-secret-key', '--state', join(dir, 'flag.json')), { env: source.env, cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain('typed-secret-key');
    expect(run.stderr).toMatch(/--to-api-key is no longer accepted: a key on the command line is visible to every user of the machine \(ps, \/proc\) and kept in shell history\. Set VITRINE_SYNC_API_KEY, or put the key in a file and give --to-api-key-file FILE/);
  });

  it('asks for the key when there is none, refuses two, an empty file and a missing one', async () => {
    const none = await runCli(syncArgs('--state', join(dir, 'none.json')), { env: source.env, cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/the destination's admin key is required: set VITRINE_SYNC_API_KEY, or give --to-api-key-file FILE/);
    const both = await runCli(syncArgs('--to-api-key-file', keyFile('both.txt', 'k'), '--state', join(dir, 'both.json')), { env: syncEnv(), cwd: dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/either VITRINE_SYNC_API_KEY or --to-api-key-file, not both/);
    const empty = await runCli(syncArgs('--to-api-key-file', keyFile('empty.txt', '\n'), '--state', join(dir, 'empty.json')), { env: source.env, cwd: dir });
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/empty\.txt holds no key/);
    const missing = await runCli(syncArgs('--to-api-key-file', join(dir, 'nowhere.txt'), '--state', join(dir, 'missing.json')), { env: source.env, cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Cannot read the key file .*nowhere\.txt/);
  });
});

/** `vitrine sync` as a child process, so that it can be interrupted and killed. */
function spawnCli(args: string[]) {
  const child = spawn(process.execPath, ['--conditions=source', bin, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? '', ...syncEnv() }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited, output: () => output };
}
