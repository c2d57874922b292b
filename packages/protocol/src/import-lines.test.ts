import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8, readImportLines } from './import-lines.ts';
import type { ImportLine } from './import-lines.ts';

/** `bytes` delivered `size` bytes at a time, so lines and characters straddle chunks. */
async function* chunksOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
}

async function lines(bytes: Uint8Array, size = 3, maxLineBytes?: number): Promise<ImportLine[]> {
  const all: ImportLine[] = [];
  for await (const line of readImportLines(chunksOf(bytes, size), { maxLineBytes })) all.push(line);
  return all;
}

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('import lines', () => {
  it('numbers lines across chunks, drops \\r and a leading byte-order mark, keeps multi-byte characters whole', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('a,é\r\n\nÿ€𝄞\nlast')]);
    for (const size of [1, 2, 5, 64]) {
      expect(await lines(bytes, size)).toEqual([
        { line: 1, text: 'a,é', bytes: 4 },
        { line: 2, text: '', bytes: 0 },
        { line: 3, text: 'ÿ€𝄞', bytes: 9 },
        { line: 4, text: 'last', bytes: 4 },
      ]);
    }
  });

  it('reports a line longer than the limit by its size, without the lines around it', async () => {
    const result = await lines(utf8(`ok\n${'x'.repeat(40)}\nok too\n`), 7, 16);
    expect(result).toEqual([
      { line: 1, text: 'ok', bytes: 2 },
      { line: 2, error: expect.stringMatching(/^the line is 40 bytes long, not read/) },
      { line: 3, text: 'ok too', bytes: 6 },
    ]);
  });

  it('finds the first byte that is not UTF-8: stray continuations, overlongs, surrogates, past U+10FFFF, cut sequences', () => {
    expect(firstInvalidUtf8(utf8('plain é € 𝄞'))).toBe(-1);
    expect(firstInvalidUtf8(Uint8Array.of(0x61, 0x80))).toBe(1);
    expect(firstInvalidUtf8(Uint8Array.of(0xc0, 0xaf))).toBe(0);
    expect(firstInvalidUtf8(Uint8Array.of(0xe0, 0x80, 0xaf))).toBe(0);
    expect(firstInvalidUtf8(Uint8Array.of(0x61, 0xed, 0xa0, 0x80))).toBe(1);
    expect(firstInvalidUtf8(Uint8Array.of(0xf4, 0x90, 0x80, 0x80))).toBe(0);
    expect(firstInvalidUtf8(Uint8Array.of(0x61, 0x62, 0xe2, 0x82))).toBe(2);
  });
});
