/**
 * The compiled product for the storefront's browser benchmarks (`bench:keystroke`, `keystroke-trace.ts`): built
 * when the build is missing or older than the sources, started as users start it (`vitrine start`).
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..', '..');

/** Newest modification time under `dir` (sources), 0 when it does not exist. */
function newest(dir: string): number {
  if (!existsSync(dir)) return 0;
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

export function buildIfNeeded(): void {
  const built = [join(root, 'packages/storefront/dist/index.html'), join(root, 'packages/storefront/dist-server/entry-server.js'), join(root, 'packages/cli/dist/main.js')];
  const builtAt = Math.min(...built.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
  const sources = readdirSync(join(root, 'packages')).map((name) => newest(join(root, 'packages', name, 'src')));
  if (builtAt > Math.max(...sources)) return;
  console.log('Building (npm run build): the build is missing or older than the sources…');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `vitrine start` with the demo catalogue; resolves once `/1/isalive` answers 200 (catalogue and history loaded). */
export async function startVitrine(dataDir: string, size: number): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = { ...process.env, VITRINE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', VITRINE_DEMO_SIZE: String(size) };
  const child = spawn(process.execPath, [join(root, 'packages/cli/bin/vitrine.js'), 'start'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`vitrine start exited (${child.exitCode}):\n${output}`);
    const status = await fetch(`${url}/1/isalive`).then((response) => response.status, () => 0);
    if (status === 200) return { child, url };
    await sleep(100);
  }
}

export async function stopVitrine(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
