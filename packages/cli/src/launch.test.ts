/**
 * The server commands relaunched with the server's process settings, as real processes: the server runs in a
 * child process whose environment has the glibc tunables and V8's pool size (where this machine has glibc),
 * which stops cleanly on SIGTERM sent to the command and ends at once when the command is killed outright.
 */
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { serverProcessEnv } from '@vitrine/server';
import { relaunchEnv } from './launch.ts';
import { spawnVitrine, tempDir } from './testing.ts';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The server processes whose parent is `pid` (Linux /proc): the `vitrine` command run again, not a helper process
 * such as the TypeScript loader's esbuild service, which a cold transform cache starts beside it.
 */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const parent = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
        return parent === pid && readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('vitrine.js');
      } catch {
        return false;
      }
    })
    .map(Number);
}

function serve(name: string) {
  const env = { HOST: '127.0.0.1', PORT: '0', VITRINE_DATA_DIR: join(dir, name), VITRINE_ADMIN_API_KEY: 'admin-test', VITRINE_SEARCH_API_KEY: 'search-test', VITRINE_SEARCH_THREADS: '0' };
  return spawnVitrine(['serve'], env, dir);
}

describe('relaunchEnv', () => {
  it('relaunches the server commands only, once', () => {
    const huge = () => ({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' });
    expect(relaunchEnv(['start'], {}, huge)).toEqual({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1', VITRINE_LAUNCHED: '1' });
    expect(relaunchEnv(['serve', '--help'], {}, huge)).not.toBeNull();
    expect(relaunchEnv(['import', 'products.ndjson'], {}, huge)).toBeNull();
    expect(relaunchEnv([], {}, huge)).toBeNull();
    expect(relaunchEnv(['start'], { VITRINE_LAUNCHED: '1' }, huge)).toBeNull();
    expect(relaunchEnv(['start'], {}, () => null)).toBeNull();
  });
});

describe.runIf(process.platform === 'linux')('vitrine serve, relaunched', () => {
  const settings = serverProcessEnv();
  const relaunched = settings !== null;

  it(`runs the server ${relaunched ? 'in a child process with its allocator settings' : 'in the same process (no glibc here)'}, stopped cleanly by SIGTERM`, async () => {
    const run = serve('data-term');
    // A failed expectation must not leave the server running: killed outright, the command takes it along.
    onTestFinished(() => void run.child.kill('SIGKILL'));
    const url = await run.url;
    expect((await fetch(`${url}/1/isalive`)).status).toBe(200);
    const servers = childrenOf(run.child.pid!);
    if (relaunched) {
      expect(servers).toHaveLength(1);
      // glibc splits the variable in place as it reads it (its separators become NULs): each tunable is there.
      const environ = readFileSync(`/proc/${servers[0]}/environ`, 'utf8').split('\0');
      const [first, ...rest] = settings!.GLIBC_TUNABLES!.split(':');
      expect(environ).toContain(`GLIBC_TUNABLES=${first}`);
      for (const tunable of rest) expect(environ).toContain(tunable);
      // V8's background threads sized to the machine (or as the caller's NODE_OPTIONS gave them).
      expect(environ.find((entry) => entry.startsWith('NODE_OPTIONS='))).toMatch(/--v8-pool-size=\d+/);
    } else {
      expect(servers).toEqual([]);
    }
    run.child.kill('SIGTERM');
    expect(await run.ended).toEqual({ code: 0, signal: null });
    for (const pid of servers) expect(existsSync(`/proc/${pid}`)).toBe(false);
  }, 60_000);

  it.runIf(relaunched)('ends the server at once when the command is killed with SIGKILL', async () => {
    const run = serve('data-kill');
    await run.url;
    const [server] = childrenOf(run.child.pid!);
    run.child.kill('SIGKILL');
    expect((await run.ended).signal).toBe('SIGKILL');
    // The server notices its channel closing and kills itself: poll until its /proc entry is gone.
    const deadline = Date.now() + 10_000;
    while (existsSync(`/proc/${server}`) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(existsSync(`/proc/${server}`)).toBe(false);
  }, 60_000);
});
