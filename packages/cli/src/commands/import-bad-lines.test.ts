/**
 * `vitrine import` against a real server on loopback with files holding every kind of bad line: every good line
 * lands, each bad one is reported at its own line, the counts add up and the exit code says something was
 * rejected.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BAD_KINDS, REASON_OF, everyKindEverywhere, reportedPositions, sampleFile } from '../../../protocol/src/import-samples.ts';
import type { JsonLayout, SampleFile, SampleFormat } from '../../../protocol/src/import-samples.ts';
import { describeFailure } from '../importer/sender.ts';
import { allRecords, runCli, startTestServer, tempDir } from '../testing.ts';
import type { TestServer } from '../testing.ts';

let test: TestServer;
const dir = tempDir();
let imports = 0;

beforeAll(async () => {
  test = await startTestServer();
});
afterAll(async () => {
  await test.close();
  rmSync(dir, { recursive: true, force: true });
});

async function importSample(format: SampleFormat, sample: SampleFile, ...args: string[]) {
  const name = `sample-${++imports}`;
  const path = join(dir, `${name}.${format}`);
  writeFileSync(path, sample.bytes);
  const run = await runCli(['import', path, '--index', name, '--batch-size', '7', ...args], { env: test.env, cwd: dir });
  const report = run.code === 0 ? [] : readFileSync(`${path}.errors.ndjson`, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { position: string; reason: string });
  // A file of bad lines only creates no index.
  const landed = sample.goodIds.length === 0 ? [] : (await allRecords(test.client, name)).map((record) => record.objectID);
  const counts = /Records read: ([\d,]+), sent: ([\d,]+), accepted: ([\d,]+), rejected: ([\d,]+)\./.exec(run.stdout);
  const [read, sent, accepted, rejected] = counts!.slice(1).map((n) => Number(n.replaceAll(',', '')));
  return { run, report, landed, read, sent, accepted, rejected };
}

const byNumber = (a: unknown, b: unknown) => String(a).localeCompare(String(b), 'en', { numeric: true });
const lineOf = (position: string) => Number(/^line (\d+)/.exec(position)![1]);

describe('vitrine import with bad lines', () => {
  it.each(['ndjson', 'csv', 'json'] as const)('%s: each kind of bad line at the start, middle and end is reported at its line; every good line lands', async (format) => {
    const sample = everyKindEverywhere(format, 60);
    const { run, report, landed, read, sent, accepted, rejected } = await importSample(format, sample);
    expect(run.code).toBe(1);
    expect(landed).toEqual([...sample.goodIds].sort(byNumber));
    expect(report.map((entry) => entry.position)).toEqual(reportedPositions(format, sample));
    for (const entry of report) expect(entry.reason).toMatch(REASON_OF[sample.kinds.get(lineOf(entry.position))!]);
    expect({ read, sent, accepted, rejected }).toEqual({ read: 60, sent: sample.goodIds.length, accepted: sample.goodIds.length, rejected: sample.badLines.length });
    expect(run.stderr).not.toMatch(/server refused/);
  });

  it('the issue’s NDJSON file: a line nested 20,000 levels deep, a malformed line and an array cost nothing else', async () => {
    const sample = sampleFile('ndjson', 1000, new Map([[700, 'deep'], [200, 'malformed'], [900, 'notObject']]));
    const { run, report, landed, accepted } = await importSample('ndjson', sample);
    expect(run.code).toBe(1);
    expect(accepted).toBe(997);
    expect(landed).toHaveLength(997);
    expect(report.map((entry) => entry.position)).toEqual(['line 201', 'line 701', 'line 901']);
    expect(report[1].reason).toBe('nested 20,001 levels deep: a record may nest at most 61 levels');
  });

  it('the issue’s CSV file: a quote opened on row 4 and never closed costs that row only', async () => {
    const sample = sampleFile('csv', 1000, new Map([[3, 'openQuote']]));
    const { report, landed, read, rejected } = await importSample('csv', sample);
    expect(landed).toHaveLength(999);
    expect({ read, rejected }).toEqual({ read: 1000, rejected: 1 });
    expect(report).toEqual([{ position: 'line 5', reason: expect.stringMatching(/^a quote opened on this line is never closed \(the file ends first\); reading went on at line 6$/) }]);
  });

  it('--replace-invalid-utf8 imports the line with U+FFFD instead of rejecting it', async () => {
    const sample = sampleFile('ndjson', 3, new Map([[1, 'invalidUtf8']]));
    const { run, landed } = await importSample('ndjson', sample, '--replace-invalid-utf8');
    expect(run.code).toBe(0);
    expect(landed).toEqual(['g1', 'g3', 'u2']);
  });

  it('a JSON array: one element per line, and with --replace-invalid-utf8', async () => {
    const sample = everyKindEverywhere('json', 30, 'lines');
    const { report, landed, read, rejected } = await importSample('json', sample);
    expect(landed).toEqual([...sample.goodIds].sort(byNumber));
    expect({ read, rejected }).toEqual({ read: 30, rejected: sample.badLines.length });
    expect(report.map((entry) => entry.position)).toEqual(reportedPositions('json', sample));
    const replaced = await importSample('json', sampleFile('json', 3, new Map([[1, 'invalidUtf8']])), '--replace-invalid-utf8');
    expect(replaced.run.code).toBe(0);
    expect(replaced.landed).toEqual(['g1', 'g3', 'u2']);
  });

  it('fuzz: read = accepted + rejected and the reported lines are exactly the bad ones', async () => {
    const file = fc.constantFrom<SampleFormat>('ndjson', 'csv', 'json').chain((format) =>
      fc.integer({ min: 1, max: 30 }).chain((rows) =>
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
        const { run, report, landed, read, accepted, rejected } = await importSample(format, sample);
        expect(read).toBe(rows);
        expect(accepted + rejected).toBe(read);
        expect(run.code).toBe(rejected > 0 ? 1 : 0);
        expect(report.map((entry) => entry.position)).toEqual(reportedPositions(format, sample));
        expect(landed).toEqual([...sample.goodIds].sort(byNumber));
      }),
      { numRuns: 25 },
    );
  });

  it('a failure of the importer itself is not reported as the server’s', () => {
    expect(describeFailure(new RangeError('Maximum call stack size exceeded'))).toBe('The import stopped on an error of the importer, not of the server: Maximum call stack size exceeded');
    expect(describeFailure(Object.assign(new Error('Record is too big'), { status: 400 }))).toMatch(/^The server refused the import \(HTTP 400\)/);
  });
});
