import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CliContext } from '../context.ts';
import { main } from '../main.ts';
import { runCli, tempDir } from '../testing.ts';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `vitrine serve` in-process; resolves with the URL its banner prints and a way to stop it. */
async function serve(env: Record<string, string>): Promise<{ url: string; stop: () => Promise<number>; output: () => string }> {
  const controller = new AbortController();
  let output = '';
  let announce: (url: string) => void = () => undefined;
  const announced = new Promise<string>((resolve) => (announce = resolve));
  const write = (chunk: string) => {
    output += chunk;
    const match = /Vitrine is running at (http:\/\/\S+)/.exec(output);
    if (match) announce(match[1]);
  };
  const ctx: CliContext = { env: { HOST: '127.0.0.1', PORT: '0', ...env }, cwd: dir, stdout: { write }, stderr: { write }, signal: controller.signal };
  const exited = main(['serve'], ctx);
  const url = await Promise.race([announced, exited.then((code) => Promise.reject(new Error(`serve exited (${code}):\n${output}`)))]);
  return { url, stop: () => (controller.abort(), exited), output: () => output };
}

describe('vitrine serve', () => {
  it('takes client addresses from X-Forwarded-For when VITRINE_TRUST_PROXY names the proxy', async () => {
    const keys = { 'x-algolia-application-id': 'vitrine', 'x-algolia-api-key': 'admin-test' };
    const { url, stop } = await serve({ VITRINE_DATA_DIR: join(dir, 'data'), VITRINE_ADMIN_API_KEY: 'admin-test', VITRINE_SEARCH_API_KEY: 'search-test', VITRINE_SEARCH_THREADS: '0', VITRINE_TRUST_PROXY: '127.0.0.1/32, ::1' });
    try {
      const created = await fetch(`${url}/1/keys`, { method: 'POST', headers: keys, body: JSON.stringify({ acl: ['listIndexes'], queryParameters: 'restrictSources=10.1.0.0/16' }) });
      const key = ((await created.json()) as { key: string }).key;
      const listFrom = (client: string) => fetch(`${url}/1/indexes`, { headers: { ...keys, 'x-algolia-api-key': key, 'x-forwarded-for': client } });
      // The key allows 10.1.0.0/16 only; the connection comes from 127.0.0.1, the proxy.
      expect((await listFrom('10.1.2.3')).status).toBe(200);
      expect((await listFrom('192.168.0.1')).status).toBe(403);
    } finally {
      expect(await stop()).toBe(0);
    }
  });

  it('writes its log on stdout beside the banner\'s text: a JSON line per request by default, without the key', async () => {
    const { url, stop, output } = await serve({ VITRINE_DATA_DIR: join(dir, 'data-log'), VITRINE_ADMIN_API_KEY: 'admin-log', VITRINE_SEARCH_API_KEY: 'search-log', VITRINE_SEARCH_THREADS: '0' });
    let id: string | null;
    try {
      const answer = await fetch(`${url}/1/indexes?x-algolia-application-id=vitrine&x-algolia-api-key=admin-log`);
      expect(answer.status).toBe(200);
      id = answer.headers.get('x-request-id');
    } finally {
      expect(await stop()).toBe(0);
    }
    const lines = output().split('\n');
    expect(lines).toContain('Press Ctrl+C to stop.');
    const json = lines.filter((line) => line.startsWith('{'));
    expect(json.map((line) => JSON.parse(line))).toContainEqual(expect.objectContaining({ level: 30, reqId: id, route: '/1/indexes', status: 200 }));
    // The banner shows the admin key; the log never does.
    expect(json.join('\n')).not.toContain('admin-log');
  });

  it('refuses an unknown VITRINE_LOG_LEVEL before it starts, naming the levels', async () => {
    const run = await runCli(['serve'], { env: { VITRINE_DATA_DIR: join(dir, 'data-no-log'), VITRINE_LOG_LEVEL: 'loud' }, cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('VITRINE_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"');
    expect(run.stdout).toBe('');
  });
});
