import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { BAD_KINDS, REASON_OF, everyKindEverywhere, reportedPositions, sampleFile } from '../../../protocol/src/import-samples.ts';
import type { JsonLayout, SampleFile, SampleFormat } from '../../../protocol/src/import-samples.ts';
import { tempDir } from '../testing.ts';
import { openRecordSource } from './sources.ts';
import type { ReadOptions, SourceItem } from './sources.ts';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
async function read(format: SampleFormat, bytes: Uint8Array | string, options: ReadOptions = {}): Promise<SourceItem[]> {
  const path = join(dir, `file-${++files}.${format}`);
  writeFileSync(path, bytes);
  const items: SourceItem[] = [];
  for await (const item of openRecordSource(path, format, options).items) items.push(item);
  return items;
}

const lineOf = (item: SourceItem) => Number(/^line (\d+)/.exec(item.position)![1]);
const errors = (items: SourceItem[]) => items.filter((item) => item.kind === 'error');
const ids = (items: SourceItem[]) => items.flatMap((item) => (item.kind === 'record' ? [item.record.objectID] : []));


function expectExactly(items: SourceItem[], sample: SampleFile, format: SampleFormat): void {
  expect(ids(items)).toEqual(sample.goodIds);
  expect(errors(items).map((item) => item.position)).toEqual(reportedPositions(format, sample));
  for (const item of errors(items)) {
    if (item.kind === 'error') expect(item.reason).toMatch(REASON_OF[sample.kinds.get(lineOf(item))!]);
  }
}

describe('reading import files line by line', () => {
  it.each(['ndjson', 'csv', 'json'] as const)('%s: reports each kind of bad line at start, middle and end at its own line; every good line is read', async (format) => {
    const sample = everyKindEverywhere(format, 60);
    expectExactly(await read(format, sample.bytes), sample, format);
  });

  it('a JSON array laid out one element per line: the same', async () => {
    const sample = everyKindEverywhere('json', 60, 'lines');
    expectExactly(await read('json', sample.bytes), sample, 'json');
  });

  it('a CSV quote left open is reported where it opened, and the rows after it are read', async () => {
    const rows = ['objectID,name,price', '1,Lamp,2', '2,"Chair,3', '3,Stool,4', '4,"Sofa",5', '5,"Two\nlines",6', '6,Desk,7'];
    const items = await read('csv', rows.join('\n'));
    expect(ids(items)).toEqual(['1', '3', '4', '5', '6']);
    expect(errors(items).map((item) => [item.position, item.kind === 'error' && item.reason])).toEqual([
      ['line 3', expect.stringMatching(/quote opened on this line is never closed .*reading went on at line 4/)],
    ]);
    expect(items.find((item) => item.kind === 'record' && item.record.objectID === '5')).toMatchObject({ position: 'line 6', record: { name: 'Two\nlines' } });
  });

  it('replaces invalid UTF-8 only when asked', async () => {
    const bytes = Buffer.concat([Buffer.from('{"objectID":"u","name":"caf'), Buffer.of(0xe9), Buffer.from('"}\n')]);
    expect(errors(await read('ndjson', bytes))).toMatchObject([{ position: 'line 1', reason: expect.stringMatching(/byte 0xE9 at position 28/) }]);
    expect(await read('ndjson', bytes, { replaceInvalidUtf8: true })).toMatchObject([{ kind: 'record', record: { name: 'caf\ufffd' } }]);
    const array = Buffer.concat([Buffer.from('[\n  {\n    "objectID": "u",\n    "name": "caf'), Buffer.of(0xe9), Buffer.from('"\n  }\n]\n')]);
    expect(errors(await read('json', array))).toMatchObject([{ position: 'line 2 (record 1)', reason: expect.stringMatching(/byte 0xE9 on line 4, at position 17/) }]);
    expect(await read('json', array, { replaceInvalidUtf8: true })).toMatchObject([{ kind: 'record', record: { name: 'caf\ufffd' } }]);
  });

  it('a CSV header that cannot be used stops the file at line 1', async () => {
    expect(await read('csv', 'objectID,__proto__\n1,2\n')).toMatchObject([{ kind: 'error', position: 'line 1', fatal: true }]);
  });

  it('fuzz: for files with random bad lines, read = good + bad and the reported lines are exactly the bad ones', async () => {
    // A 5 MB line makes each file megabytes: it is covered above, the fuzz keeps to the cheaper kinds.
    const files = fc.oneof(
      ...(['ndjson', 'csv', 'json'] as const).map((format) =>
        fc
          .integer({ min: 1, max: 40 })
          .chain((rows) =>
            fc.tuple(
              fc.constant(format),
              fc.constant(rows),
              fc.dictionary(fc.integer({ min: 0, max: rows - 1 }).map(String), fc.constantFrom(...BAD_KINDS[format].filter((kind) => kind !== 'hugeLine'))),
              fc.constantFrom<JsonLayout>('pretty', 'lines'),
            ),
          ),
      ),
    );
    await fc.assert(
      fc.asyncProperty(files, async ([format, rows, bad, layout]) => {
        const sample = sampleFile(format, rows, new Map(Object.entries(bad).map(([row, kind]) => [Number(row), kind])), layout);
        const items = await read(format, sample.bytes);
        expect(items.length).toBe(rows);
        expectExactly(items, sample, format);
      }),
      { numRuns: 100 },
    );
  });
});
