import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateProducts } from '@vitrine/demo';
import { runCli, tempDir } from '../testing.ts';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('vitrine demo', () => {
  it('writes the same NDJSON for the same seed, matching the generator', async () => {
    const a = await runCli(['demo', '--size', '200', '--seed', '3', '--out', 'a.ndjson'], { cwd: dir });
    const b = await runCli(['demo', '--size', '200', '--seed', '3', '--out', 'b.ndjson'], { cwd: dir });
    expect([a.code, b.code]).toEqual([0, 0]);
    const text = readFileSync(join(dir, 'a.ndjson'), 'utf8');
    expect(readFileSync(join(dir, 'b.ndjson'), 'utf8')).toBe(text);
    const expected = [...generateProducts(200, 3)].map((p) => JSON.stringify(p) + '\n').join('');
    expect(text).toBe(expected);
  });

  it('writes to standard output without --out', async () => {
    const run = await runCli(['demo', '--size', '2'], { cwd: dir });
    expect(run.stdout.trim().split('\n').map((line) => JSON.parse(line).objectID)).toEqual(['1', '2']);
  });

  it('requires a valid --size', async () => {
    expect((await runCli(['demo'], { cwd: dir })).stderr).toMatch(/--size is required/);
    expect((await runCli(['demo', '--size', 'ten'], { cwd: dir })).code).toBe(2);
  });
});

describe('help', () => {
  it('lists every command', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    for (const name of ['start', 'serve', 'import', 'export', 'demo']) expect(run.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
  });

  it('has help for each command', async () => {
    for (const name of ['start', 'serve', 'import', 'export', 'demo']) {
      const run = await runCli([name, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Usage: vitrine ${name}`));
    }
  });

  it('treats unknown commands and options as usage errors (exit code 2)', async () => {
    expect(await runCli(['frobnicate'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/Unknown command/) });
    expect(await runCli(['serve', '--nope'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/--nope/) });
    expect((await runCli(['serve', 'extra'])).code).toBe(2);
    expect((await runCli([])).code).toBe(2);
  });
});
