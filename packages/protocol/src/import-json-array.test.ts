import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonArrayItems } from './import-json-array.ts';
import type { ImportLineOptions } from './import-lines.ts';
import type { ImportItem } from './import-records.ts';
import { JSON_BAD_KINDS, REASON_OF, everyKindEverywhere, sampleFile } from './import-samples.ts';
import type { JsonLayout, SampleFile } from './import-samples.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);

/** `bytes` delivered `size` bytes at a time, so elements, lines and characters straddle chunks. */
async function* chunksOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

async function read(file: Uint8Array | string, size = 5, options: ImportLineOptions = {}): Promise<ImportItem[]> {
  const items: ImportItem[] = [];
  for await (const item of jsonArrayItems(chunksOf(typeof file === 'string' ? utf8(file) : file, size), options)) items.push(item);
  return items;
}

/** Items as `[line, element, objectID or reason]`, to compare at a glance. */
const brief = (items: ImportItem[]) => items.map((item) => [item.line, item.element, 'record' in item ? item.record.objectID : item.error]);

function expectExactly(items: ImportItem[], sample: SampleFile): void {
  expect(items.flatMap((item) => ('record' in item ? [item.record.objectID] : []))).toEqual(sample.goodIds);
  const errors = items.filter((item) => 'error' in item);
  expect(errors.map((item) => [item.line, item.element])).toEqual(sample.badLines.map((line, i) => [line, sample.badRecords[i]]));
  for (const item of errors) if ('error' in item) expect(item.error).toMatch(REASON_OF[sample.kinds.get(item.line)!]);
}

describe('JSON array import files', () => {
  it.each(['pretty', 'lines'] as const)('%s: each kind of bad element at start, middle and end is reported at the line where it starts; every good one is read', async (layout) => {
    const sample = everyKindEverywhere('json', 40, layout);
    for (const size of [4099, 1 << 16]) expectExactly(await read(sample.bytes, size), sample);
  });

  it('numbers elements on one line, and reports one that does not parse without costing the next', async () => {
    const items = await read('\ufeff[{"objectID":"a"}, 3, {"objectID": }, {"objectID":"b","tags":["x","]"],"q":"say \\"}\\""}]');
    expect(brief(items)).toEqual([
      [1, 1, 'a'],
      [1, 2, expect.stringMatching(/^not a JSON object but a number/)],
      [1, 3, expect.stringMatching(/^malformed JSON \(/)],
      [1, 4, 'b'],
    ]);
  });

  it('resynchronises where brackets do not balance: the innermost bracket of the closing kind, the next line opening an element', async () => {
    const file = ['[', '  {"objectID": "1", "a": [1, 2},', '  {"objectID": "2", "b": [1]]},', '  {"objectID": "3",', '    "c": {"d": 1},', '  {"objectID": "4", "e": "open', '  },', '  {"objectID": "5"}', ']'].join('\n');
    expect(brief(await read(file))).toEqual([
      [2, 1, 'malformed JSON (a } on line 2 closes a { while a [ inside it is still open)'],
      [3, 2, 'malformed JSON (a ] on line 3 closes nothing)'],
      [4, 3, 'malformed JSON (the record is not closed before the next one starts on line 6)'],
      [6, 4, 'malformed JSON (a string is not closed on line 6)'],
      [8, 5, '5'],
    ]);
  });

  it('on an array written on one line, a record left open costs the rest of the line (the rule)', async () => {
    expect(brief(await read('[{"objectID":"1"},{"objectID":"2","a":{"b":1},{"objectID":"3"}]'))).toEqual([
      [1, 1, '1'],
      [1, 2, 'malformed JSON (a ] on line 1 closes nothing)'],
    ]);
    expect(brief(await read('[{"objectID":"1"},{"objectID":"2","a":{"b":1},\n{"objectID":"3"}]'))).toEqual([
      [1, 1, '1'],
      [1, 2, 'malformed JSON (the record is not closed before the next one starts on line 2)'],
      [2, 3, '3'],
    ]);
  });

  it('reports commas out of place, a truncated file, and what is not an array', async () => {
    expect(brief(await read('[{"objectID":"1"},,{"objectID":"2"}\n{"objectID":"3"},\n]'))).toEqual([
      [1, 1, '1'],
      [1, 2, 'malformed JSON (an empty element: a comma with no record before it)'],
      [1, 3, '2'],
      [2, 4, 'malformed JSON (no comma between this record and the one before it)'],
      [3, 5, 'malformed JSON (a comma before the ] that closes the array, with no record after it)'],
    ]);
    expect(brief(await read('[\n{"objectID":"1"},\n{"objectID":"2"}\n'))).toEqual([
      [2, 1, '1'],
      [3, 2, '2'],
      [4, 3, 'malformed JSON (the file ends before the array is closed by ]: is it complete?)'],
    ]);
    expect(await read('[{"objectID":"1"}]\n]')).toMatchObject([{ record: { objectID: '1' } }, { line: 2, error: 'text after the array closed on line 1: not read', fatal: true }]);
    expect(await read('{"objectID":"1"}\n{"objectID":"2"}\n')).toEqual([{ line: 1, element: 1, error: expect.stringMatching(/^not a JSON array: the file must start with \[ \(one object per line is NDJSON/), fatal: true }]);
    expect(await read('  \n')).toEqual([{ line: 1, element: 1, error: 'no JSON array: the file is empty', fatal: true }]);
    expect(await read('[ ]')).toEqual([]);
  });

  it('reports invalid UTF-8 at the line it is on, or replaces it when asked', async () => {
    const bytes = new Uint8Array([...utf8('[\n  {\n    "objectID": "u",\n    "name": "caf'), 0xe9, ...utf8('"\n  },\n  {"objectID": "ok"}\n]')]);
    expect(brief(await read(bytes, 3))).toEqual([
      [2, 1, 'not valid UTF-8 text (byte 0xE9 on line 4, at position 17): save the file as UTF-8, or ask for invalid bytes to be replaced'],
      [6, 2, 'ok'],
    ]);
    expect(await read(bytes, 3, { replaceInvalidUtf8: true })).toMatchObject([{ line: 2, record: { name: 'caf\ufffd' } }, { line: 6, record: { objectID: 'ok' } }]);
    expect(brief(await read(new Uint8Array([...utf8('[{"objectID":"x'), 0xff, ...utf8('"}]')])))).toEqual([[1, 1, expect.stringMatching(/byte 0xFF on line 1, at position 16/)]]);
  });

  it('skips an element longer than the limit unread, by its size', async () => {
    const items = await read(`[{"objectID":"1"}, {"objectID":"2","t":"${'x'.repeat(100)}"}, {"objectID":"3"}]`, 9, { maxLineBytes: 64 });
    expect(brief(items)).toEqual([
      [1, 1, '1'],
      [1, 2, expect.stringMatching(/^the record is 123 bytes long, not read/)],
      [1, 3, '3'],
    ]);
  });

  it('fuzz: for arrays with random bad elements, every element is one item and the reported ones are exactly the bad ones', async () => {
    // A 5 MB element makes each file megabytes: it is covered above, the fuzz keeps to the cheaper kinds.
    const kinds = fc.constantFrom(...JSON_BAD_KINDS.filter((kind) => kind !== 'hugeLine'));
    const files = fc.integer({ min: 1, max: 40 }).chain((rows) =>
      fc.tuple(fc.constant(rows), fc.dictionary(fc.integer({ min: 0, max: rows - 1 }).map(String), kinds), fc.constantFrom<JsonLayout>('pretty', 'lines'), fc.integer({ min: 64, max: 4096 })),
    );
    await fc.assert(
      fc.asyncProperty(files, async ([rows, bad, layout, size]) => {
        const sample = sampleFile('json', rows, new Map(Object.entries(bad).map(([row, kind]) => [Number(row), kind])), layout);
        const items = await read(sample.bytes, size);
        expect(items.map((item) => item.element)).toEqual(Array.from({ length: rows }, (_, i) => i + 1));
        expectExactly(items, sample);
      }),
      { numRuns: 100 },
    );
  });
});
