/**
 * The product as users install it: `npm run pack`'s tarball, installed with `npm install -g` into an empty
 * prefix (its third-party dependencies from the registry, better-sqlite3 built on the spot), then `vitrine start`
 * run from that prefix in an empty folder, with nothing of this repository reachable: the shop, its server-rendered
 * pages and the API answer from the compiled code, and SIGTERM stops it cleanly.
 *
 * It packs what `npm run build` last built (`npm test` builds first): building here would rewrite the storefront
 * the browser tests are serving meanwhile.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { spawnCommand, tempDir } from '../src/testing.ts';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..', '..');
const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a command to its end; its output is kept for the failure message. */
async function sh(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  try {
    // A stuck command (a registry out of reach) fails the test with its output rather than timing it out silently.
    const { stdout } = await run(command, args, { ...options, maxBuffer: 64 * 1024 * 1024, timeout: 480_000 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
}

/**
 * This machine's environment (its network and certificate settings) without anything that leads into this
 * repository or the test run: no path into it, no npm script variables, no Node options (the `source` condition),
 * no test mode.
 */
function bareEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|VITEST|NODE_OPTIONS$|NODE_ENV$|INIT_CWD$|TEST$)/i.test(name)) continue;
    env[name] = value;
  }
  const path = (process.env.PATH ?? '/usr/bin:/bin').split(':').filter((entry) => entry !== '' && !entry.startsWith(root) && !entry.includes('node_modules'));
  return { ...env, PATH: [join(dir, 'prefix', 'bin'), ...path].join(':'), ...extra };
}

describe('the npm package', () => {
  it('installs from its tarball into an empty prefix and `vitrine start` serves the shop, its pages and the API', async () => {
    const packed = await sh(process.execPath, [join(root, 'scripts', 'pack.mjs'), '--no-build', '--out', join(dir, 'out')], { cwd: root });
    const tarball = packed.trim().split('\n').at(-1)!;
    expect(tarball).toMatch(/vitrine-cli-\d+\.\d+\.\d+\.tgz$/);

    const prefix = join(dir, 'prefix');
    await sh('npm', ['install', '--global', '--prefix', prefix, '--allow-scripts=better-sqlite3', '--no-audit', '--no-fund', tarball], { cwd: dir, env: bareEnv({}) });
    const installed = join(prefix, 'lib', 'node_modules', '@vitrine', 'cli');
    // Compiled code only: neither the sources nor a TypeScript loader came with it.
    expect(existsSync(join(installed, 'dist', 'main.js'))).toBe(true);
    expect(existsSync(join(installed, 'src'))).toBe(false);
    expect(existsSync(join(installed, 'node_modules', 'tsx'))).toBe(false);
    expect(existsSync(join(installed, 'node_modules', 'typescript'))).toBe(false);

    const shop = join(dir, 'shop');
    mkdirSync(shop);
    const run = spawnCommand(join(prefix, 'bin', 'vitrine'), ['start'], bareEnv({ HOST: '127.0.0.1', PORT: '0', VITRINE_DEMO_SIZE: '500' }), shop);
    onTestFinished(() => void run.child.kill('SIGKILL'));
    const url = await run.url;
    const output = run.output();
    const searchKey = /Search key\s+(\S+)/.exec(output)?.[1];
    expect(searchKey).toMatch(/^[0-9a-f]{32}$/);
    // The data folder is the current one, as in the README.
    expect(existsSync(join(shop, 'data'))).toBe(true);

    expect((await fetch(`${url}/1/isalive`)).status).toBe(200);
    const search = await fetch(`${url}/1/indexes/*/queries`, {
      method: 'POST',
      headers: { 'x-algolia-application-id': 'vitrine', 'x-algolia-api-key': searchKey! },
      body: JSON.stringify({ requests: [{ indexName: 'products', query: '', hitsPerPage: 3, facets: ['brand'] }] }),
    });
    expect(search.status).toBe(200);
    const [result] = (await search.json()).results;
    expect(result.nbHits).toBe(500);
    expect(result.hits).toHaveLength(3);
    expect(Object.keys(result.facets.brand).length).toBeGreaterThan(1);

    // The storefront built into the package, and its server-rendered pages.
    const home = await fetch(`${url}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<div id="root">');
    const category = await fetch(`${url}/c/home-kitchen`);
    expect(category.status).toBe(200);
    const categoryPage = await category.text();
    // Rendered on the server: the category's trail as structured data, and its products' prices in the HTML.
    expect(categoryPage).toMatch(/<script type="application\/ld\+json">[^<]*BreadcrumbList/);
    expect(categoryPage).toMatch(/\$\d+\.\d\d/);

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    // What the package says it is: the command's manifest, without the sources' export condition.
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(manifest.bin).toEqual({ vitrine: './bin/vitrine.js' });
    expect(JSON.stringify(manifest.exports)).not.toContain('source');
  }, 600_000);
});
