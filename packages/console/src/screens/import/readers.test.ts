import { describe, expect, it } from 'vitest';
import { formatOf, readItems } from './readers.ts';
import type { ImportItem } from './readers.ts';

/** A byte stream delivering `text` in chunks of `size` bytes, so records and characters straddle chunks. */
function streamOf(text: string, size = 7): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

async function collect(items: AsyncGenerator<ImportItem>): Promise<ImportItem[]> {
  const all: ImportItem[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe('import readers', () => {
  it('reads NDJSON line by line, numbering lines and listing bad ones', async () => {
    const items = await collect(readItems('ndjson', streamOf('{"objectID":"1","name":"Lampe à poser"}\r\nnot json\n\n[1,2]\n{"objectID":"4"}')));
    expect(items).toEqual([
      { line: 1, record: { objectID: '1', name: 'Lampe à poser' } },
      { line: 2, error: expect.stringContaining('malformed JSON') },
      { line: 4, error: expect.stringMatching(/^not a JSON object but an array/) },
      { line: 5, record: { objectID: '4' } },
    ]);
  });

  it('reads a JSON array element by element, each at the line where it starts and with its number', async () => {
    const items = await collect(readItems('json', streamOf('[{"objectID":"a","tags":["x"]}, 3,\n {"objectID": },\n {"objectID":"b"}]')));
    expect(items).toEqual([
      { line: 1, element: 1, record: { objectID: 'a', tags: ['x'] } },
      { line: 1, element: 2, error: expect.stringMatching(/^not a JSON object but a number/) },
      { line: 2, element: 3, error: expect.stringMatching(/^malformed JSON/) },
      { line: 3, element: 4, record: { objectID: 'b' } },
    ]);
  });

  it('lists invalid UTF-8 in a JSON array, or replaces it when asked', async () => {
    const bytes = (file: string) => new TextEncoder().encode(file).map((byte) => (byte === 0x7e ? 0xe9 : byte));
    const stream = () => new Blob([bytes('[\n{"objectID":"u","name":"caf~"}]')]).stream();
    expect(await collect(readItems('json', stream()))).toEqual([{ line: 2, element: 1, error: expect.stringMatching(/^not valid UTF-8 text \(byte 0xE9 on line 2, at position 28\)/) }]);
    expect(await collect(readItems('json', stream(), { replaceInvalidUtf8: true }))).toEqual([{ line: 2, element: 1, record: { objectID: 'u', name: 'caf\ufffd' } }]);
  });

  it('reads CSV with the header’s names, quoted line breaks, numbers, and wrong field counts', async () => {
    const csv = 'objectID,name,price\n1,"Desk ""Pro""\nlamp",12.5\n2,Chair\n3,Stool,7\n';
    const items = await collect(readItems('csv', streamOf(csv, 5)));
    expect(items).toEqual([
      { line: 2, record: { objectID: '1', name: 'Desk "Pro"\nlamp', price: 12.5 } },
      { line: 4, error: '2 cells where the header has 3' },
      { line: 5, record: { objectID: '3', name: 'Stool', price: 7 } },
    ]);
  });

  it('tells formats by file name', () => {
    expect(formatOf('a.CSV')).toBe('csv');
    expect(formatOf('a.json')).toBe('json');
    expect(formatOf('a.ndjson')).toBe('ndjson');
  });
});
