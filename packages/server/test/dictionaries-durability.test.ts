/**
 * Dictionary entries survive kill -9 like every other write: a writer adds stop words (one batch per request)
 * while the test kills the server at a random moment, then restarts it on the same data folder, several times
 * (snapshots taken often, every other round with a search thread). Every acknowledged entry must be found after
 * the restart, and searches must treat it as a stop word.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, removeDir, spawnServer, tempDir } from '../src/test-support.ts';

const ROUNDS = 3;
const headers = { 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': ADMIN_KEY, 'content-type': 'text/plain' };
const startChild = (dataDir: string, threads = 0) => spawnServer({ VITRINE_DATA_DIR: dataDir, VITRINE_SNAPSHOT_EVERY_OPS: '10', VITRINE_SEARCH_THREADS: String(threads) });

const post = (url: string, path: string, body: unknown) => fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });

async function storedWords(url: string): Promise<Set<string>> {
  const response = await post(url, '/1/dictionaries/stopwords/search', { query: 'zq', language: 'en', hitsPerPage: 1000 });
  const hits = ((await response.json()) as { hits: Array<{ word: string; type: string }> }).hits;
  return new Set(hits.filter((hit) => hit.type === 'custom').map((hit) => hit.word));
}

describe('dictionary entries under kill -9', () => {
  const dataDir = tempDir('vitrine-dictionaries-crash-');
  afterAll(() => removeDir(dataDir));

  it(`keeps every acknowledged entry across ${ROUNDS} hard kills`, { timeout: 120_000 }, async () => {
    const acked = new Set<string>();
    let next = 0;
    for (let round = 0; round <= ROUNDS; round++) {
      const { kill, url } = await startChild(dataDir, round % 2);
      if (round === 0) {
        const saved = await post(url, '/1/indexes/crash/batch', { requests: [{ action: 'addObject', body: { objectID: 'lamp', name: 'lamp' } }] });
        expect(saved.status).toBe(200);
      }
      const stored = await storedWords(url);
      expect([...acked].filter((word) => !stored.has(word)), `acknowledged entries missing after restart ${round}`).toEqual([]);
      if (acked.size > 0) {
        // An acknowledged stop word is dropped from the query: "<word> lamp" finds the lamp.
        const word = [...acked][0];
        const search = await post(url, '/1/indexes/crash/query', { query: `${word} lamp`, removeStopWords: ['en'], typoTolerance: false });
        expect(((await search.json()) as { nbHits: number }).nbHits, `stop word ${word} applied after restart ${round}`).toBe(1);
      }
      if (round === ROUNDS) {
        await kill();
        break;
      }
      let stop = false;
      const writer = async () => {
        while (!stop) {
          const words = Array.from({ length: 3 }, () => `zq${next++}`);
          const requests = words.map((word) => ({ action: 'addEntry', body: { objectID: word, language: 'en', word } }));
          try {
            const response = await post(url, '/1/dictionaries/stopwords/batch', { requests });
            if (response.ok) for (const word of words) acked.add(word);
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
  });
});
