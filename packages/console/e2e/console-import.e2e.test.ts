/**
 * The console's Import screen against the real server: a 10,000-line NDJSON file with 3 bad lines gives 9,997
 * records and 3 listed errors; CSV and JSON arrays; replace-all keeps the index's settings; an interrupted
 * import resumes after its last acknowledged line; the export downloads the whole index.
 */
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Harness } from '../../storefront/e2e/harness.ts';
import { api, expectStatus, useSignedInConsole } from './console-helpers.ts';

let harness: Harness;
let page: Page;

const session = useSignedInConsole({ products: 50 });
beforeAll(() => {
  ({ harness, page } = session);
});

const badLines = new Map([
  [10, 'not json at all'],
  [5000, '["an", "array"]'],
  [9999, '{"objectID": ""}'],
]);

/** 10,000 lines: a record per line, except the three bad ones. */
function tenThousandLines(): Buffer {
  const lines: string[] = [];
  for (let line = 1; line <= 10_000; line++) lines.push(badLines.get(line) ?? JSON.stringify({ objectID: `r${line}`, name: `Item ${line}`, price: line }));
  return Buffer.from(lines.join('\n') + '\n');
}

async function openImport(indexName: string): Promise<void> {
  await page.goto(`/admin/import?index=${indexName}`);
  await page.getByRole('heading', { level: 2, name: 'Import' }).waitFor();
}

const count = async (indexName: string) => (await api<{ nbHits: number }>(harness, 'POST', `/1/indexes/${indexName}/query`, { query: '', hitsPerPage: 0 })).json.nbHits;
const errorRows = () => page.getByRole('table', { name: 'Import errors' }).locator('tbody tr').allTextContents();

describe('import', () => {
  it('imports 10,000 NDJSON lines with 3 bad ones: 9,997 records, 3 errors listed by line', async () => {
    await openImport('bulk');
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'bulk.ndjson', mimeType: 'application/x-ndjson', buffer: tenThousandLines() });
    await page.getByRole('button', { name: 'Import' }).click();
    await expectStatus(page, 'Import finished and published: Records read: 10,000, sent: 9,997, accepted: 9,997, rejected: 3.');
    expect(await page.getByLabel('Import progress').getAttribute('value')).toBe('100');
    expect(await count('bulk')).toBe(9997);
    const rows = await errorRows();
    expect(rows.map((row) => Number(/^\d+/.exec(row)![0]))).toEqual([10, 5000, 9999]);
    expect(rows[0]).toContain('malformed JSON');
    expect(rows[1]).toContain('not a JSON object but an array');
    expect(rows[2]).toContain('objectID must be a non-empty string');
    // Finished imports leave nothing to resume.
    expect(await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith('vitrine.console.import:')))).toEqual([]);
  });

  it('resumes an interrupted import after the last acknowledged line', async () => {
    const buffer = tenThousandLines();
    // As an import stopped after the batch ending at line 6,000 would have left it.
    await page.evaluate(
      ({ size }) => sessionStorage.setItem(`vitrine.console.import:${size}:resumed.ndjson`, JSON.stringify({ indexName: 'resumed', mode: 'upsert', writeIndex: 'resumed', lastLine: 6000, imported: 0, errors: [{ line: 10, reason: 'Not valid JSON' }] })),
      { size: buffer.length },
    );
    await openImport('resumed');
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'resumed.ndjson', mimeType: 'application/x-ndjson', buffer });
    await page.getByRole('button', { name: 'Resume from line 6,001' }).click();
    await expectStatus(page, 'Import finished and published: Records read: 4,000, sent: 3,999, accepted: 3,999, rejected: 2.');
    // Only lines 6,001 to 10,000 were sent (one of them bad).
    expect(await count('resumed')).toBe(3999);
    expect((await api(harness, 'GET', '/1/indexes/resumed/r6000')).status).toBe(404);
    expect((await api(harness, 'GET', '/1/indexes/resumed/r6001')).status).toBe(200);
  });

  it('imports CSV with a header row, numbers as numbers', async () => {
    await openImport('products');
    const csv = 'objectID,name,price\ncsv-1,"Lamp, ""big""",12.5\ncsv-2,Chair\ncsv-3,Stool,7\n';
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'more.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    expect(await page.getByLabel('Format').inputValue()).toBe('csv');
    await page.getByRole('button', { name: 'Import' }).click();
    await expectStatus(page, 'Import finished and published: Records read: 3, sent: 2, accepted: 2, rejected: 1.');
    expect((await api<{ name: string; price: number }>(harness, 'GET', '/1/indexes/products/csv-1')).json).toMatchObject({ name: 'Lamp, "big"', price: 12.5 });
    expect(await errorRows()).toEqual(['32 cells where the header has 3']);
    expect(await count('products')).toBe(52);
  });

  it('replaces all records from a JSON array, keeping the index’s settings', async () => {
    const before = (await api<{ attributesForFaceting: string[] }>(harness, 'GET', '/1/indexes/products/settings')).json.attributesForFaceting;
    await openImport('products');
    const records = [{ objectID: 'only-1', name: 'Only one', brand: 'Solo' }, { objectID: 'only-2', name: 'Only two', brand: 'Solo' }];
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'all.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(records)) });
    await page.getByRole('radio', { name: /Replace all/ }).check();
    await page.getByRole('button', { name: 'Import' }).click();
    await expectStatus(page, 'Import finished and published: Records read: 2, sent: 2, accepted: 2, rejected: 0.');
    expect(await count('products')).toBe(2);
    expect((await api<{ attributesForFaceting: string[] }>(harness, 'GET', '/1/indexes/products/settings')).json.attributesForFaceting).toEqual(before);
    const { json } = await api<{ items: Array<{ name: string }> }>(harness, 'GET', '/1/indexes');
    expect(json.items.some((item) => item.name.includes('_tmp_import_'))).toBe(false);
  });

  it('exports an index with its settings, synonyms and records as a download', async () => {
    await api(harness, 'PUT', '/1/indexes/products/synonyms/syn-1', { objectID: 'syn-1', type: 'synonym', synonyms: ['sofa', 'couch'] });
    await expect.poll(async () => (await api<{ nbHits: number }>(harness, 'POST', '/1/indexes/products/synonyms/search', { query: '' })).json.nbHits).toBe(1);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export products' }).click()]);
    expect(download.suggestedFilename()).toBe('products.json');
    const exported = JSON.parse(await readFile((await download.path())!, 'utf8')) as { settings: { attributesForFaceting: string[] }; synonyms: Array<{ objectID: string }>; records: Array<{ objectID: string }> };
    expect(exported.records.map((record) => record.objectID).sort()).toEqual(['only-1', 'only-2']);
    expect(exported.synonyms.map((synonym) => synonym.objectID)).toEqual(['syn-1']);
    expect(exported.settings.attributesForFaceting.length).toBeGreaterThan(0);
  });
});
