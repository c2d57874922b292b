/**
 * `vitrine import --replace` against a real server on loopback (issue 49, item 4): the live index is replaced
 * only when every record landed; with lines the reader rejects, or records the server refuses, it is left as it
 * was (records, settings, Recommend rules) and the command says so with exit code 1. `--allow-rejected`
 * replaces it with what landed, as before. Recommend rules go to the live index's name, never to the temporary one.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listRecommendRules, saveRecommendRules } from '../importer/recommend-rules.ts';
import { allRecords, runCli, startTestServer, tempDir } from '../testing.ts';
import type { TestServer } from '../testing.ts';

let test: TestServer;
const dir = tempDir();
const LIVE = Array.from({ length: 500 }, (_, i) => ({ objectID: `live-${i}`, name: `Product ${i}` }));

beforeAll(async () => {
  // Records over 300 bytes are the server's to refuse (the reader's own limit is Algolia's 100 KB).
  test = await startTestServer({ limits: { maxRecordBytes: 300 } });
});
afterAll(async () => {
  await test.close();
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}
const importFile = (path: string, ...args: string[]) => runCli(['import', path, ...args], { env: test.env, cwd: dir });

/** A live index of 500 records with settings of its own. */
async function liveIndex(name: string): Promise<void> {
  const settings = await test.client.setSettings({ indexName: name, indexSettings: { customRanking: ['asc(name)'] } });
  await test.client.waitForTask({ indexName: name, taskID: settings.taskID });
  await test.client.saveObjects({ indexName: name, objects: LIVE, waitForTasks: true });
}
const temporaryIndexes = async (name: string) => (await test.client.listIndices()).items.map((item) => item.name).filter((index) => index.startsWith(`${name}_tmp`));

describe('vitrine import --replace', () => {
  const unreadable = ['{"objectID":"n1","name":"New 1"}', '{"objectID":"bad1"', 'not json', '["an","array"]', '{"objectID":"n2","name":"New 2"}', '{', '42', '{"objectID":"bad6",}'];

  it('leaves the live index unchanged when lines cannot be read, and says so (exit 1)', async () => {
    await liveIndex('shop');
    await saveRecommendRules(test.client, 'shop', { 'related-products': [{ objectID: 'kept' }] });
    const run = await importFile(file('partial.ndjson', unreadable), '--index', 'shop', '--replace', '--settings', file('new-settings.json', ['{"customRanking":["desc(name)"]}']),
      '--recommend-rules', file('new-recommend-rules.json', ['{"related-products":[{"objectID":"new"}]}']));
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/Records read: 8, sent: 2, accepted: 2, rejected: 6\./);
    expect(run.stdout).not.toMatch(/Replaced/);
    expect(run.stderr).toMatch(/"shop" was not replaced: 6 of 8 records were rejected; it still holds what it held before\. --allow-rejected replaces it with the 2 records that landed\./);
    expect(await allRecords(test.client, 'shop')).toHaveLength(500);
    expect(await test.client.getSettings({ indexName: 'shop' })).toMatchObject({ customRanking: ['asc(name)'] });
    expect((await listRecommendRules(test.client, 'shop'))['related-products']!.map((rule) => rule.objectID)).toEqual(['kept']);
    expect(await temporaryIndexes('shop')).toEqual([]);
  });

  it('leaves it unchanged when the server refuses records', async () => {
    await liveIndex('refused');
    const big = JSON.stringify({ objectID: 'big', text: 'x'.repeat(400) });
    const run = await importFile(file('refused.ndjson', ['{"objectID":"r1"}', big, '{"objectID":"r2"}']), '--index', 'refused', '--replace', '--batch-size', '1');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/accepted: 2, rejected: 1\./);
    expect(run.stderr).toMatch(/"refused" was not replaced: 1 of 3 records were rejected/);
    expect(await allRecords(test.client, 'refused')).toHaveLength(500);
    expect(await temporaryIndexes('refused')).toEqual([]);
  });

  it('replaces it with what landed with --allow-rejected, still reporting the rejected records (exit 1)', async () => {
    await liveIndex('allowed');
    const run = await importFile(file('allowed.ndjson', unreadable), '--index', 'allowed', '--replace', '--allow-rejected');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/Replaced "allowed": 2 records/);
    expect(run.stderr).toMatch(/6 record\(s\) rejected/);
    expect(await allRecords(test.client, 'allowed')).toEqual([
      { objectID: 'n1', name: 'New 1' },
      { objectID: 'n2', name: 'New 2' },
    ]);
    expect(await temporaryIndexes('allowed')).toEqual([]);
  });

  it('replaces it when every record landed, and refuses --allow-rejected without --replace', async () => {
    await liveIndex('whole');
    await saveRecommendRules(test.client, 'whole', { 'related-products': [{ objectID: 'old' }], 'trending-items': [{ objectID: 'kept' }] });
    const recommendRules = file('whole-recommend-rules.json', ['{"related-products":[{"objectID":"new","consequence":{"hide":[{"objectID":"w1"}]}}]}']);
    const run = await importFile(file('whole.ndjson', ['{"objectID":"w1"}', '{"objectID":"w2"}']), '--index', 'whole', '--replace', '--recommend-rules', recommendRules);
    expect(run.code).toBe(0);
    expect((await allRecords(test.client, 'whole')).map((record) => record.objectID)).toEqual(['w1', 'w2']);
    // Recommend rules belong to the name: the file's model replaced on the live index, the others kept.
    const rules = await listRecommendRules(test.client, 'whole');
    expect(rules['related-products']!.map(({ _metadata: _m, ...rule }) => rule)).toEqual([{ objectID: 'new', consequence: { hide: [{ objectID: 'w1' }] } }]);
    expect(rules['trending-items']!.map((rule) => rule.objectID)).toEqual(['kept']);
    const wrong = await importFile(file('w.ndjson', ['{"objectID":"w3"}']), '--index', 'whole', '--recommend-rules', file('wrong.json', ['{"looking-similar":[]}']));
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/names "looking-similar": expected related-products/);
    const usage = await importFile(file('upsert.ndjson', ['{"objectID":"u1"}']), '--index', 'whole', '--allow-rejected');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/--allow-rejected goes with --replace/);
  });
});
