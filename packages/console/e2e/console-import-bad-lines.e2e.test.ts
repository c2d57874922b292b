/**
 * The console's Import screen with files holding every kind of bad line (the same files the CLI's tests import:
 * NDJSON, CSV, JSON arrays): every good line lands, each bad one is listed at its own line (and, in a JSON array,
 * its element's number) with its reason, and the counts are those the CLI prints for the same file.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BAD_KINDS, REASON_OF, everyKindEverywhere, sampleFile } from '../../protocol/src/import-samples.ts';
import type { JsonLayout, SampleFile, SampleFormat } from '../../protocol/src/import-samples.ts';
import type { Harness } from '../../storefront/e2e/harness.ts';
import { api, expectStatus, useSignedInConsole } from './console-helpers.ts';

let harness: Harness;
let page: Page;
let imports = 0;

const session = useSignedInConsole({ products: 20 });
beforeAll(() => {
  ({ harness, page } = session);
});

/** Imports `sample` through the screen into a fresh index; resolves once the screen says it is published. */
async function importThroughConsole(format: SampleFormat, sample: SampleFile, options: { replaceInvalidUtf8?: boolean } = {}): Promise<string> {
  const indexName = `bad-lines-${++imports}`;
  await page.goto(`/admin/import?index=${indexName}`);
  await page.getByRole('heading', { level: 2, name: 'Import' }).waitFor();
  await page.getByLabel('File', { exact: true }).setInputFiles({ name: `sample.${format}`, mimeType: 'text/plain', buffer: Buffer.from(sample.bytes) });
  if (options.replaceInvalidUtf8) await page.getByRole('checkbox', { name: /not valid UTF-8/ }).check();
  await page.getByRole('button', { name: 'Import' }).click();
  const rejected = options.replaceInvalidUtf8 ? 0 : sample.badLines.length;
  const sent = sample.goodIds.length + sample.badLines.length - rejected;
  const read = sample.goodIds.length + sample.badLines.length;
  // The counts the CLI prints for the same file (commands/import-bad-lines.test.ts).
  await expectStatus(page, `Import finished and published: Records read: ${read.toLocaleString('en-US')}, sent: ${sent}, accepted: ${sent}, rejected: ${rejected}.`);
  return indexName;
}

async function landedIds(indexName: string): Promise<string[]> {
  const { status, json } = await api<{ hits: Array<{ objectID: string }> }>(harness, 'POST', `/1/indexes/${indexName}/browse`, { hitsPerPage: 1000, attributesToRetrieve: ['objectID'] });
  if (status === 404) return [];
  return json.hits.map((hit) => hit.objectID).sort();
}

/** The listed errors: the line (a JSON array's element shows as `12 (record 5)`, `record` is then 5) and reason. */
async function listedErrors(): Promise<Array<{ line: number; record?: number; reason: string }>> {
  const table = page.getByRole('table', { name: 'Import errors' });
  if ((await table.count()) === 0) return [];
  const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  return rows.map(([where, reason]) => {
    const [, line, record] = /^(\d+)(?: \(record (\d+)\))?$/.exec(where)!;
    return record === undefined ? { line: Number(line), reason } : { line: Number(line), record: Number(record), reason };
  });
}

/** What the list must hold for `sample`'s bad lines: their lines, and in a JSON array their element numbers. */
const expectedErrors = (format: SampleFormat, sample: SampleFile) =>
  sample.badLines.map((line, i) => (format === 'json' ? { line, record: sample.badRecords[i] } : { line }));

describe('console import with bad lines', () => {
  it.each(['ndjson', 'csv', 'json'] as const)('%s: each kind of bad line at the start, middle and end is listed at its line; every good line lands', async (format) => {
    const sample = everyKindEverywhere(format, 60);
    const indexName = await importThroughConsole(format, sample);
    expect(await landedIds(indexName)).toEqual([...sample.goodIds].sort());
    const errors = await listedErrors();
    expect(errors.map(({ reason: _, ...at }) => at)).toEqual(expectedErrors(format, sample));
    for (const error of errors) expect(error.reason).toMatch(REASON_OF[sample.kinds.get(error.line)!]);
  });

  it.each(['ndjson', 'json'] as const)('%s: replaces invalid UTF-8 when asked', async (format) => {
    const sample = sampleFile(format, 3, new Map([[1, 'invalidUtf8']]));
    const indexName = await importThroughConsole(format, sample, { replaceInvalidUtf8: true });
    expect((await api<{ name: string }>(harness, 'GET', `/1/indexes/${indexName}/u2`)).json.name).toBe('caf\ufffd');
  });

  it('fuzz: generated files with random bad lines give read = accepted + rejected and list exactly the bad lines', async () => {
    const file = fc.constantFrom<SampleFormat>('ndjson', 'csv', 'json').chain((format) =>
      fc.integer({ min: 1, max: 25 }).chain((rows) =>
        fc.record({
          format: fc.constant(format),
          rows: fc.constant(rows),
          bad: fc.dictionary(fc.integer({ min: 0, max: rows - 1 }).map(String), fc.constantFrom(...BAD_KINDS[format].filter((kind) => kind !== 'hugeLine'))),
          layout: fc.constantFrom<JsonLayout>('pretty', 'lines'),
        }),
      ),
    );
    await fc.assert(
      fc.asyncProperty(file, async ({ format, rows, bad, layout }) => {
        const sample = sampleFile(format, rows, new Map(Object.entries(bad).map(([row, kind]) => [Number(row), kind])), layout);
        const indexName = await importThroughConsole(format, sample);
        expect((await listedErrors()).map(({ reason: _, ...at }) => at)).toEqual(expectedErrors(format, sample));
        expect(await landedIds(indexName)).toEqual([...sample.goodIds].sort());
      }),
      { numRuns: 6 },
    );
  });

  it('resumes a JSON array written on one line after its last acknowledged record, not its line', async () => {
    const buffer = Buffer.from(JSON.stringify(Array.from({ length: 10 }, (_, i) => ({ objectID: `j${i + 1}` }))));
    // As an import stopped after the batch ending at record 6 would have left it.
    await page.evaluate(
      ({ size }) => sessionStorage.setItem(`vitrine.console.import:${size}:one-line.json`, JSON.stringify({ indexName: 'one-line', mode: 'upsert', writeIndex: 'one-line', lastLine: 6, imported: 6, errors: [] })),
      { size: buffer.length },
    );
    await page.goto('/admin/import?index=one-line');
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'one-line.json', mimeType: 'application/json', buffer });
    await page.getByRole('button', { name: 'Resume from record 7' }).click();
    await expectStatus(page, 'Import finished and published: Records read: 4, sent: 4, accepted: 10, rejected: 0.');
    expect(await landedIds('one-line')).toEqual(['j10', 'j7', 'j8', 'j9']);
  });
});
