import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRecords, runCli, startTestServer, tempDir } from '../testing.ts';
import type { TestServer } from '../testing.ts';

let test: TestServer;
const dir = tempDir();

beforeAll(async () => {
  test = await startTestServer();
});
afterAll(async () => {
  await test.close();
  rmSync(dir, { recursive: true, force: true });
});

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

const importFile = (path: string, ...args: string[]) => runCli(['import', path, ...args], { env: test.env, cwd: dir });

function reportOf(path: string): Array<{ position: string; objectID?: string; reason: string }> {
  return readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
}

describe('vitrine import', () => {
  it('imports NDJSON, reports malformed lines by line number, and lands the good records', async () => {
    const path = file(
      'items.ndjson',
      [
        '{"objectID":"a","name":"Alpha","price":1}',
        '{"objectID":"b","name":"Beta"',
        '',
        '["not","an","object"]',
        '{"objectID":"c","name":"Gamma","tags":["x","y"]}',
        '{"objectID":7,"name":"numeric id"}',
      ].join('\n'),
    );
    const run = await importFile(path, '--index', 'nd', '--batch-size', '2');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('3 record(s) rejected');
    expect(reportOf(`${path}.errors.ndjson`).map((e) => e.position)).toEqual(['line 2', 'line 4', 'line 6']);
    expect(reportOf(`${path}.errors.ndjson`)[0].reason).toMatch(/malformed JSON/);
    expect(await allRecords(test.client, 'nd')).toEqual([
      { objectID: 'a', name: 'Alpha', price: 1 },
      { objectID: 'c', name: 'Gamma', tags: ['x', 'y'] },
    ]);
  });

  it('imports a JSON array, naming bad elements by their position', async () => {
    const path = file('items.json', JSON.stringify([{ objectID: '1', n: 1 }, 42, { objectID: '2', n: 2 }, null]));
    const run = await importFile(path, '--index', 'arr');
    expect(run.code).toBe(1);
    expect(reportOf(`${path}.errors.ndjson`).map((e) => e.position)).toEqual(['line 1 (record 2)', 'line 1 (record 4)']);
    expect((await allRecords(test.client, 'arr')).map((r) => r.objectID)).toEqual(['1', '2']);
  });

  it('reports a JSON syntax error at the element where it is, and reads the elements after it', async () => {
    const path = file('broken.json', '[{"objectID":"1"},{"objectID":"2"},\n{"objectID": oops},\n{"objectID":"4"}]');
    const run = await importFile(path, '--index', 'broken');
    expect(run.code).toBe(1);
    expect(reportOf(`${path}.errors.ndjson`)).toEqual([{ position: 'line 2 (record 3)', reason: expect.stringMatching(/^malformed JSON/) }]);
    expect((await allRecords(test.client, 'broken')).map((r) => r.objectID)).toEqual(['1', '2', '4']);
  });

  it('imports CSV with inferred types, lists and nested columns, and reports bad rows', async () => {
    const path = file(
      'items.csv',
      [
        'objectID,name,price,free_shipping,tags,hierarchicalCategories.lvl0,zip:string,meta:json',
        '1,Lamp,19.99,true,red|blue,Home,01234,"{""a"":1}"',
        '2,Chair,,false,single,Home,02000,[1]',
        '3,Broken row,1',
        '4,Bad JSON,5,true,x,Home,1,{nope',
        '007,Desk,120,false,,Office,9,',
      ].join('\n'),
    );
    const run = await importFile(path, '--index', 'csv');
    expect(run.code).toBe(1);
    const report = reportOf(`${path}.errors.ndjson`);
    expect(report.map((e) => e.position)).toEqual(['line 4', 'line 5']);
    expect(report[0].reason).toMatch(/3 cells where the header has 8/);
    expect(report[1]).toMatchObject({ objectID: '4', reason: expect.stringMatching(/meta.*not valid JSON/) });
    expect(await allRecords(test.client, 'csv')).toEqual([
      { objectID: '1', name: 'Lamp', price: 19.99, free_shipping: true, tags: ['red', 'blue'], hierarchicalCategories: { lvl0: 'Home' }, zip: '01234', meta: { a: 1 } },
      { objectID: '2', name: 'Chair', free_shipping: false, tags: 'single', hierarchicalCategories: { lvl0: 'Home' }, zip: '02000', meta: [1] },
      { objectID: '007', name: 'Desk', price: 120, free_shipping: false, hierarchicalCategories: { lvl0: 'Office' }, zip: '9' },
    ]);
  });

  it('isolates records the server refuses inside an otherwise good batch', async () => {
    const huge = 'x'.repeat(120 * 1024);
    const lines = Array.from({ length: 10 }, (_, i) => JSON.stringify({ objectID: `r${i}`, text: i === 6 ? huge : 'ok' }));
    const path = file('server-refused.ndjson', lines.join('\n'));
    const run = await importFile(path, '--index', 'refused', '--batch-size', '10');
    expect(run.code).toBe(1);
    const report = reportOf(`${path}.errors.ndjson`);
    expect(report).toHaveLength(1);
    expect(report[0]).toMatchObject({ position: 'line 7', objectID: 'r6' });
    expect(await allRecords(test.client, 'refused')).toHaveLength(9);
  });

  it('succeeds quietly on a clean file and writes no report', async () => {
    const path = file('clean.ndjson', '{"objectID":"1","v":1}\n{"objectID":"2","v":2}\n');
    const run = await importFile(path, '--index', 'clean');
    expect(run).toMatchObject({ code: 0, stderr: expect.not.stringContaining('rejected') });
    expect(run.stdout).toMatch(/Imported into "clean": 2 records/);
    expect(existsSync(`${path}.errors.ndjson`)).toBe(false);
    // The command waited for the last task: the records are searchable as soon as it returns.
    const { results } = await test.client.search({ requests: [{ indexName: 'clean', query: '' }] });
    expect((results[0] as { nbHits: number }).nbHits).toBe(2);
  });

  it('applies --settings and --synonyms before the records', async () => {
    const settingsPath = file('s.json', JSON.stringify({ searchableAttributes: ['name'], customRanking: ['desc(v)'] }));
    const synonymsPath = file('syn.json', JSON.stringify([{ objectID: 's1', type: 'synonym', synonyms: ['sofa', 'couch'] }]));
    const path = file('with-settings.ndjson', '{"objectID":"1","name":"Blue sofa","v":3}\n');
    const run = await importFile(path, '--index', 'configured', '--settings', settingsPath, '--synonyms', synonymsPath);
    expect(run.code).toBe(0);
    const settings = await test.client.getSettings({ indexName: 'configured' });
    expect(settings).toMatchObject({ searchableAttributes: ['name'], customRanking: ['desc(v)'] });
    const synonyms = await test.client.searchSynonyms({ indexName: 'configured' });
    expect(synonyms.hits.map((hit) => hit.objectID)).toEqual(['s1']);
  });

  it('--replace swaps the whole index, keeping its settings and removing records absent from the file', async () => {
    const first = file('v1.ndjson', ['{"objectID":"1","v":"old"}', '{"objectID":"2","v":"old"}'].join('\n'));
    expect((await importFile(first, '--index', 'swap', '--settings', file('swap-settings.json', '{"customRanking":["desc(v)"]}'))).code).toBe(0);
    const second = file('v2.ndjson', ['{"objectID":"2","v":"new"}', '{"objectID":"3","v":"new"}'].join('\n'));
    const run = await importFile(second, '--index', 'swap', '--replace');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Replaced "swap": 2 records/);
    expect(await allRecords(test.client, 'swap')).toEqual([
      { objectID: '2', v: 'new' },
      { objectID: '3', v: 'new' },
    ]);
    expect(await test.client.getSettings({ indexName: 'swap' })).toMatchObject({ customRanking: ['desc(v)'] });
    // No temporary index is left behind.
    const { items } = await test.client.listIndices();
    expect(items.map((item) => item.name).filter((name) => name.startsWith('swap_tmp'))).toEqual([]);
  });

  it('reports caller mistakes as usage errors without touching the server', async () => {
    expect((await importFile(join(dir, 'missing.ndjson'), '--index', 'x')).stderr).toMatch(/Cannot read/);
    expect((await importFile(file('a.txt', '{}'), '--index', 'x')).code).toBe(2);
    expect((await runCli(['import', 'a.ndjson'], { env: test.env, cwd: dir })).stderr).toMatch(/--index is required/);
    expect((await importFile(file('b.ndjson', ''), '--index', 'x', '--batch-size', '0')).code).toBe(2);
  });

  it('stops with a clear message when the key is wrong', async () => {
    const path = file('auth.ndjson', '{"objectID":"1"}\n');
    const run = await runCli(['import', path, '--index', 'auth', '--api-key', 'wrong'], { env: test.env, cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/HTTP 403/);
  });
});
