/**
 * Rules survive kill -9 like every other write: writers save rules (alone and in batches) while the test kills
 * the server at a random moment, then restarts it on the same data folder, several times (snapshots taken
 * often, every other round with a search thread). Every acknowledged rule must be there, as saved, and
 * searches must apply them after the restart.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, removeDir, spawnServer, tempDir } from '../src/test-support.ts';

const ROUNDS = 3;
const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY, 'content-type': 'text/plain' };
const startChild = (dataDir: string, threads = 0) => spawnServer({ VITRINE_DATA_DIR: dataDir, VITRINE_SNAPSHOT_EVERY_OPS: '10', VITRINE_SEARCH_THREADS: String(threads) });

const ruleFor = (id: string) => ({ objectID: id, conditions: [{ pattern: id, anchoring: 'is' }], consequence: { userData: { saved: id } } });

async function storedRules(url: string): Promise<Map<string, unknown>> {
  const response = await fetch(`${url}/1/indexes/crash/rules/search`, { method: 'POST', headers, body: JSON.stringify({ hitsPerPage: 1000 }) });
  const rules = new Map<string, unknown>();
  if (response.status === 404) return rules;
  for (const hit of ((await response.json()) as { hits: Array<{ objectID: string }> }).hits) rules.set(hit.objectID, hit);
  return rules;
}

describe('rules under kill -9', () => {
  const dataDir = tempDir('vitrine-rules-crash-');
  afterAll(() => removeDir(dataDir));

  it(`keeps every acknowledged rule across ${ROUNDS} hard kills`, { timeout: 120_000 }, async () => {
    const acked = new Set<string>();
    let next = 0;
    for (let round = 0; round <= ROUNDS; round++) {
      const { kill, url } = await startChild(dataDir, round % 2);
      const stored = await storedRules(url);
      const missing = [...acked].filter((id) => JSON.stringify(stored.get(id)) !== JSON.stringify(ruleFor(id)));
      expect(missing, `acknowledged rules missing or altered after restart ${round}`).toEqual([]);
      if (acked.size > 0) {
        const id = [...acked][0];
        const search = await fetch(`${url}/1/indexes/crash/query`, { method: 'POST', headers, body: JSON.stringify({ query: id }) });
        expect(((await search.json()) as { userData?: unknown[] }).userData, `rule ${id} applied after restart ${round}`).toEqual([{ saved: id }]);
      }
      if (round === ROUNDS) {
        await kill();
        break;
      }
      let stop = false;
      const writer = async (batch: boolean) => {
        while (!stop) {
          const ids = Array.from({ length: batch ? 5 : 1 }, () => `r${next++}`);
          try {
            const response = batch
              ? await fetch(`${url}/1/indexes/crash/rules/batch`, { method: 'POST', headers, body: JSON.stringify(ids.map(ruleFor)) })
              : await fetch(`${url}/1/indexes/crash/rules/${ids[0]}`, { method: 'PUT', headers, body: JSON.stringify(ruleFor(ids[0])) });
            if (response.ok) for (const id of ids) acked.add(id);
          } catch {
            return; // The server died mid-request: never acknowledged.
          }
        }
      };
      const writers = [writer(false), writer(true)];
      // A random moment, so kills land anywhere in the write path (commit, apply, snapshot).
      await new Promise((resolve) => setTimeout(resolve, 150 + Math.random() * 400));
      await kill();
      stop = true;
      await Promise.all(writers);
    }
    expect(acked.size).toBeGreaterThan(0);
  });
});
