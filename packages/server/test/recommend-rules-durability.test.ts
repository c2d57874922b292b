/**
 * Recommend rules survive kill -9 like every other write: writers save batches of rules (and delete some) while
 * the test kills the server at a random moment, then restarts it on the same data folder, several times
 * (snapshots taken often, so restarts read them from snapshots' manifests and from the log; every other round
 * with a search thread). Every acknowledged batch must be there whole, every acknowledged deletion done, no
 * batch seen in part, and recommendations must apply the rules after the restart. A backup holds them too.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/index.ts';
import { ADMIN_KEY, APP_ID, removeDir, SEARCH_KEY, spawnServer, startTestServer, tempDir } from '../src/test-support.ts';

const ROUNDS = 3;
const BATCH = 5;
const headers = (key = ADMIN_KEY) => ({ 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': key, 'content-type': 'text/plain' });
const startChild = (dataDir: string, threads = 0) => spawnServer({ VITRINE_DATA_DIR: dataDir, VITRINE_SNAPSHOT_EVERY_OPS: '10', VITRINE_SEARCH_THREADS: String(threads) });
const RULES = '/1/indexes/crash/related-products/recommend/rules';

/** Every rule of a batch pins the same item, so a restarted server shows whether it applies them. */
const ruleFor = (id: string) => ({ objectID: id, description: `rule ${id}`, consequence: { promote: [{ objectID: 'p1', position: 0 }] } });

async function storedRules(url: string): Promise<Map<string, Record<string, unknown>>> {
  const stored = new Map<string, Record<string, unknown>>();
  for (let page = 0; ; page++) {
    const response = await fetch(`${url}${RULES}/search`, { method: 'POST', headers: headers(), body: JSON.stringify({ hitsPerPage: 1000, page }) });
    const body = (await response.json()) as { hits: Array<Record<string, unknown> & { objectID: string }>; nbPages: number };
    for (const hit of body.hits) stored.set(hit.objectID, hit);
    if (page + 1 >= body.nbPages) return stored;
  }
}

describe('Recommend rules under kill -9', () => {
  const dataDir = tempDir('vitrine-recommend-rules-crash-');
  afterAll(() => removeDir(dataDir));

  it(`keeps every acknowledged batch whole across ${ROUNDS} hard kills`, { timeout: 120_000 }, async () => {
    const batches: string[][] = [];
    const acked = new Set<number>();
    const deleted = new Set<string>();
    /** Deletions sent, acknowledged or not (one the kill cut short may or may not have been logged). */
    const deleting = new Set<string>();
    for (let round = 0; round <= ROUNDS; round++) {
      const { kill, url } = await startChild(dataDir, round % 2);
      if (round === 0) {
        const records = [{ objectID: 'p1', name: 'pinned lamp' }, { objectID: 'p2', name: 'source lamp' }];
        const saved = await fetch(`${url}/1/indexes/crash/batch`, { method: 'POST', headers: headers(), body: JSON.stringify({ requests: records.map((body) => ({ action: 'addObject', body })) }) });
        expect(saved.status).toBe(200);
      }
      const stored = await storedRules(url);
      batches.forEach((ids, n) => {
        const present = ids.filter((id) => stored.has(id) || deleting.has(id));
        // A batch is one log row: all of it or none, acknowledged or not.
        expect([0, ids.length], `batch ${n} seen in part after restart ${round}`).toContain(present.length);
        if (acked.has(n)) expect(present.length, `acknowledged batch ${n} missing after restart ${round}`).toBe(ids.length);
      });
      for (const id of deleted) expect(stored.has(id), `deleted rule ${id} back after restart ${round}`).toBe(false);
      for (const [id, rule] of stored) expect({ ...rule, _metadata: undefined }, id).toEqual({ ...ruleFor(id), _metadata: undefined });
      if (stored.size > 0) {
        const answer = await fetch(`${url}/1/indexes/*/recommendations`, {
          method: 'POST', headers: headers(SEARCH_KEY), body: JSON.stringify({ requests: [{ indexName: 'crash', model: 'related-products', objectID: 'p2', threshold: 0 }] }),
        });
        const { results } = (await answer.json()) as { results: Array<{ hits: Array<{ objectID: string }> }> };
        expect(results[0].hits[0]?.objectID, `rules applied after restart ${round}`).toBe('p1');
      }
      if (round === ROUNDS) {
        await kill();
        break;
      }
      let stop = false;
      const writer = async () => {
        while (!stop) {
          const n = batches.length;
          const ids = Array.from({ length: BATCH }, (_, i) => `r${n}-${i}`);
          batches.push(ids);
          try {
            const response = await fetch(`${url}${RULES}/batch`, { method: 'POST', headers: headers(), body: JSON.stringify(ids.map(ruleFor)) });
            if (!response.ok) return;
            acked.add(n);
            // Every third batch loses its first rule again, acknowledged before the next write.
            if (n % 3 === 0) {
              deleting.add(ids[0]);
              const removal = await fetch(`${url}${RULES}/${ids[0]}`, { method: 'DELETE', headers: headers() });
              if (removal.status === 404) continue; // Not applied yet: the rule is not there to delete.
              if (removal.ok) deleted.add(ids[0]);
            }
          } catch {
            return; // The server died mid-request: never acknowledged.
          }
        }
      };
      const writers = [writer(), writer()];
      // A random moment, so kills land anywhere in the write path (commit, apply, snapshot).
      await new Promise((resolve) => setTimeout(resolve, 150 + Math.random() * 400));
      await kill();
      stop = true;
      await Promise.all(writers);
    }
    expect(acked.size).toBeGreaterThan(0);
    expect(deleted.size).toBeGreaterThan(0);
  });
});

describe('Recommend rules in a backup', () => {
  const target = tempDir('vitrine-recommend-rules-backup-');
  afterAll(() => removeDir(target));

  it('are in the copy (`vitrine backup`), served as they were', async () => {
    const t = await startTestServer();
    const to = join(target, 'copy');
    try {
      expect((await t.call('POST', '/1/indexes/shop/batch', { requests: [{ action: 'addObject', body: { objectID: 'p1' } }] })).status).toBe(200);
      const saved = await t.call('POST', '/1/indexes/shop/trending-items/recommend/rules/batch', [ruleFor('b1')]);
      expect(saved.status).toBe(200);
      const response = await fetch(`${t.url}/1/vitrine/backup`, { method: 'POST', headers: headers(), body: JSON.stringify({ to }) });
      const lines = (await response.text()).trim().split('\n').map((line) => JSON.parse(line) as { event: string });
      expect(lines.at(-1)?.event).toBe('done');
    } finally {
      await t.close();
    }
    const restored = await startServer({ dataDir: to, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY, port: 0 });
    try {
      const rule = await fetch(`${restored.url}/1/indexes/shop/trending-items/recommend/rules/b1`, { headers: headers() });
      expect(rule.status).toBe(200);
      expect({ ...((await rule.json()) as object), _metadata: undefined }).toEqual({ ...ruleFor('b1'), _metadata: undefined });
    } finally {
      await restored.close();
    }
  });
});
