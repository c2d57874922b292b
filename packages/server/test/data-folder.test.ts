/**
 * Data folders and their format version: a folder written before folders recorded their format (the `data-v1`
 * fixture, written by the code of the time: see `fixtures/make-data-v1.ts`) opens and answers as it did; a
 * folder of a newer format, a damaged one and one that is not Vitrine's are refused with a message, and left
 * byte for byte as they were.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/index.ts';
import { DATA_FORMAT } from '../src/storage/data-folder.ts';
import { Store } from '../src/storage/store.ts';
import { removeDir, tempDir } from '../src/test-support.ts';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'data-v1');
/** When the fixture's events were recorded: its analytics are read with this clock (retention is relative to it). */
const FIXTURE_NOW = 1796458691962;

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function fixtureCopy(): string {
  const dir = tempDir('vitrine-data-v1-');
  dirs.push(dir);
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

/** Every file under `dir` (relative path → size and SHA-256): equal before and after means untouched. */
function contents(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const relative = path.slice(dir.length + 1);
    files.set(relative, entry.isFile() ? `${statSync(path).size} ${createHash('sha256').update(readFileSync(path)).digest('hex')}` : 'folder');
  }
  return files;
}

async function refusal(dataDir: string): Promise<Error> {
  const error = await Store.open({ dataDir }).then(
    async (store) => {
      await store.close();
      return new Error('opened');
    },
    (failure: unknown) => failure as Error,
  );
  expect(error.name).toBe('DataFolderError');
  return error;
}

describe('a data folder written before folders recorded their format', () => {
  it('opens and answers as before: records, settings, replicas, synonyms, rules, dictionaries, keys, analytics', { timeout: 60_000 }, async () => {
    const dataDir = fixtureCopy();
    expect(existsSync(join(dataDir, 'format.json'))).toBe(false);
    expect(existsSync(join(dataDir, 'insights-models.sqlite'))).toBe(false);
    const keys = JSON.parse(readFileSync(join(dataDir, 'keys.json'), 'utf8')) as { adminApiKey: string; searchApiKey: string };
    const server = await startServer({ dataDir, appId: 'vitrine', ...keys, port: 0, searchThreads: 1, now: () => FIXTURE_NOW });
    try {
      const call = async (method: string, path: string, body?: unknown, key = keys.adminApiKey) => {
        const response = await fetch(`${server.url}${path}`, { method, headers: { 'x-algolia-application-id': 'vitrine', 'x-algolia-api-key': key }, body: body === undefined ? undefined : JSON.stringify(body) });
        return { status: response.status, body: (await response.json()) as unknown };
      };
      const search = async (indexName: string, params: Record<string, unknown>) => (await call('POST', `/1/indexes/${indexName}/query`, params, keys.searchApiKey)).body as { nbHits: number; hits: Array<Record<string, unknown>>; userData?: unknown[]; facets?: Record<string, Record<string, number>> };

      // 120 products written before the snapshot, one more in the log's tail, one deleted there.
      const all = await search('products', { query: '', facets: ['brand'] });
      expect(all.nbHits).toBe(120);
      expect(all.facets?.brand).toEqual({ Acme: 31, Globex: 29, Initech: 30, Umbrella: 30 });
      expect((await call('GET', '/1/indexes/products/p1')).status).toBe(404);
      expect((await call('GET', '/1/indexes/products/p120')).body).toMatchObject({ name: 'brass lamp 120' });
      expect((await call('GET', '/1/indexes/products/p2')).body).toMatchObject({ popularity: 5000 });
      // The rule pins p7 on "lamp" and sends its userData; the synonyms (one from the tail) still expand.
      const lamps = await search('products', { query: 'lamp' });
      expect(lamps.hits[0].objectID).toBe('p7');
      expect(lamps.userData).toEqual([{ banner: 'lamps' }]);
      expect((await search('products', { query: 'couch' })).hits.every((hit) => String(hit.name).includes('sofa'))).toBe(true);
      // (p7, a table the rule pins on "lamp" only, is counted there and not here.)
      expect((await search('products', { query: 'light' })).nbHits).toBe(lamps.nbHits - 1);
      expect((await search('products', { query: 'carpet', hitsPerPage: 1 })).hits[0].name).toMatch(/rug/);
      // Replicas: a standard one sorted by price, a virtual one by price descending.
      expect((await search('products_price_asc', { query: '', hitsPerPage: 1 })).hits[0]).toMatchObject({ objectID: 'p0', price: 10 });
      const highest = Math.max(...Array.from({ length: 121 }, (_, i) => 10 + ((i * 37) % 490)));
      expect((await search('products_price_desc', { query: '', hitsPerPage: 1 })).hits[0].price).toBe(highest);
      expect((await call('GET', '/1/indexes/products/settings')).body).toMatchObject({ customRanking: ['desc(popularity)'], searchableAttributes: ['name', 'brand'] });
      // The application's dictionary entry, the key created through the API, the shop's analytics and events.
      const stopWords = (await call('POST', '/1/dictionaries/stopwords/search', { query: 'ze' })).body as { hits: Array<Record<string, unknown>> };
      expect(stopWords.hits[0]).toMatchObject({ objectID: 'sw-the', word: 'ze', type: 'custom' });
      const listed = (await call('GET', '/1/keys')).body as { keys: Array<{ description?: string; acl: string[] }> };
      expect(listed.keys.find((key) => key.description === 'fixture key')?.acl).toEqual(['search']);
      expect(server.insights.listEvents().map((recorded) => recorded.event.eventType)).toEqual(['click', 'conversion', 'view']);
      const day = new Date(FIXTURE_NOW).toISOString().slice(0, 10);
      const searches = (await call('GET', `/2/searches?index=products&startDate=${day}&endDate=${day}`)).body as { searches: Array<{ search: string; count: number }> };
      expect(searches.searches.find((row) => row.search === 'lamp')?.count).toBe(2);
      // Written before the models kept aggregates: built from scratch once (at start), from them since.
      const first = await server.insights.rebuildModels();
      expect(first).toMatchObject({ eventsRead: 3, full: false, eventsScanned: 0, trendingItems: 3 });
      expect(existsSync(join(dataDir, 'insights-models.sqlite'))).toBe(true);
    } finally {
      await server.close();
    }
    // Once opened, the folder records its format (nothing else in its layout changed since format 1).
    expect(JSON.parse(readFileSync(join(dataDir, 'format.json'), 'utf8'))).toEqual({ format: DATA_FORMAT });
  });
});

describe('a data folder that cannot be opened is refused and left as it was', () => {
  it('a newer format, named with the one this build reads', async () => {
    const dataDir = fixtureCopy();
    writeFileSync(join(dataDir, 'format.json'), JSON.stringify({ format: DATA_FORMAT + 1 }));
    const before = contents(dataDir);
    const error = await refusal(dataDir);
    expect(error.message).toContain(`data format ${DATA_FORMAT + 1}, written by a newer Vitrine; this one reads formats up to ${DATA_FORMAT}`);
    expect(contents(dataDir)).toEqual(before);
  });

  it('a format file that names no format', async () => {
    const dataDir = fixtureCopy();
    writeFileSync(join(dataDir, 'format.json'), '{"format": "two"}');
    const before = contents(dataDir);
    expect((await refusal(dataDir)).message).toContain('format.json names no data format');
    expect(contents(dataDir)).toEqual(before);
  });

  it('a folder of other files', async () => {
    const dataDir = tempDir('vitrine-foreign-');
    dirs.push(dataDir);
    writeFileSync(join(dataDir, 'notes.txt'), 'not a shop');
    writeFileSync(join(dataDir, 'photo.jpg'), Buffer.alloc(1000, 7));
    const before = contents(dataDir);
    expect((await refusal(dataDir)).message).toBe(`${dataDir} is not a Vitrine data folder: it holds other files (notes.txt, photo.jpg) and no vitrine.db. Point VITRINE_DATA_DIR at a Vitrine data folder, or at an empty or missing folder to start a new shop.`);
    expect(contents(dataDir)).toEqual(before);
  });

  it('a truncated log database', async () => {
    const dataDir = fixtureCopy();
    // Opened and closed once: the log's tail is then in the database file itself, which is cut in half.
    await (await Store.open({ dataDir })).close();
    expect(existsSync(join(dataDir, 'vitrine.db-wal'))).toBe(false);
    truncateSync(join(dataDir, 'vitrine.db'), Math.floor(statSync(join(dataDir, 'vitrine.db')).size / 2));
    const before = contents(dataDir);
    expect((await refusal(dataDir)).message).toBe(`${join(dataDir, 'vitrine.db')} cannot be read (database disk image is malformed): the log database is damaged. Restore the data folder from a backup; it was left as it is.`);
    expect(contents(dataDir)).toEqual(before);
  });

  it('a log database that is not one', async () => {
    const dataDir = fixtureCopy();
    rmSync(join(dataDir, 'vitrine.db-wal'));
    writeFileSync(join(dataDir, 'vitrine.db'), 'random bytes '.repeat(400));
    const before = contents(dataDir);
    expect((await refusal(dataDir)).message).toContain('vitrine.db cannot be read (file is not a database)');
    expect(contents(dataDir)).toEqual(before);
  });

  it('snapshots and analytics without their log database', async () => {
    const dataDir = fixtureCopy();
    rmSync(join(dataDir, 'vitrine.db'));
    rmSync(join(dataDir, 'vitrine.db-wal'));
    const before = contents(dataDir);
    expect((await refusal(dataDir)).message).toContain('holds insights.sqlite and snapshots but its log database (vitrine.db) is missing');
    expect(contents(dataDir)).toEqual(before);
  });
});

describe('a new data folder', () => {
  it('records its format when it is created', async () => {
    const dataDir = join(tempDir('vitrine-new-'), 'shop');
    dirs.push(dataDir);
    await (await Store.open({ dataDir })).close();
    expect(JSON.parse(readFileSync(join(dataDir, 'format.json'), 'utf8'))).toEqual({ format: DATA_FORMAT });
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  });
});
