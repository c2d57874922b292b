/**
 * `vitrine serve` on a data folder it must not open: a newer format, or a folder that is not Vitrine's. It stops
 * with the server's message (no stack trace) before writing anything there, not even the generated keys.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATA_FORMAT } from '@vitrine/server';
import { runCli, tempDir } from '../testing.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function folderWith(files: Record<string, string>): string {
  const dir = tempDir('vitrine-cli-folder-');
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('vitrine serve on a data folder it cannot open', () => {
  it('refuses a newer format, naming both versions, and writes nothing', async () => {
    const dataDir = folderWith({ 'format.json': JSON.stringify({ format: DATA_FORMAT + 1 }), 'vitrine.db': '' });
    const run = await runCli(['serve'], { env: { VITRINE_DATA_DIR: dataDir, PORT: '0' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `Error: the data folder ${dataDir} has data format ${DATA_FORMAT + 1}, written by a newer Vitrine; this one reads formats up to ${DATA_FORMAT}. ` +
        'Run the newer Vitrine again (or start this one on a backup taken before the upgrade): the folder was left as it is.\n',
    );
    expect(readdirSync(dataDir).sort()).toEqual(['format.json', 'vitrine.db']);
    expect(readFileSync(join(dataDir, 'vitrine.db'), 'utf8')).toBe('');
  });

  it('refuses a folder of other files, and writes nothing', async () => {
    const dataDir = folderWith({ 'holiday.jpg': 'jpeg' });
    const run = await runCli(['serve'], { env: { VITRINE_DATA_DIR: dataDir, PORT: '0' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Error: .* is not a Vitrine data folder: it holds other files \(holiday\.jpg\) and no vitrine\.db\. /);
    expect(readdirSync(dataDir)).toEqual(['holiday.jpg']);
  });
});
