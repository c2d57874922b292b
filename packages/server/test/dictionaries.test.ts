/**
 * Dictionaries through the official v5 client over a real socket: entries added and deleted in batches (with
 * clearExistingDictionaryEntries), searched, the settings turning standard stop words off, the languages list;
 * every write a task `waitForAppTask` waits on, and searches of every index changed by them (removeStopWords,
 * ignorePlurals, decompoundQuery), on the main thread and on a search thread. Then ACLs, a key limited to some
 * indexes, and refused requests.
 */
import { algoliasearch } from 'algoliasearch';
import type { Algoliasearch } from 'algoliasearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, APP_ID, SEARCH_KEY, startTestServer } from '../src/test-support.ts';
import type { TestServer } from '../src/test-support.ts';

const RECORDS = [
  { objectID: '1', name: 'vintage lamp' },
  { objectID: '2', name: 'lamp' },
  { objectID: '3', name: 'blorf' },
  { objectID: '4', name: 'tisch lampe' },
  { objectID: '5', name: 'the chair' },
];

// Without and with a search thread: the thread's copy of the state must get the dictionaries too.
describe.each([0, 1])('dictionaries through the official client (%i search threads)', (searchThreads) => {
  let fixture: TestServer;
  let client: Algoliasearch;
  const connect = (key: string) => algoliasearch(APP_ID, key, { hosts: [{ url: fixture.host, protocol: 'http', accept: 'readWrite' }] });
  const ids = async (indexName: string, searchParams: Record<string, unknown>) =>
    // No typos: "lamp" would match "lampe" with one.
    (await connect(SEARCH_KEY).searchSingleIndex({ indexName, searchParams: { typoTolerance: false, ...searchParams } })).hits.map((hit) => hit.objectID).sort();

  beforeAll(async () => {
    fixture = await startTestServer({ config: { searchThreads } });
    client = connect(ADMIN_KEY);
    // Two indexes: dictionaries are the application's, every index searches with them.
    for (const indexName of ['shop', 'other']) await client.saveObjects({ indexName, objects: RECORDS, waitForTasks: true });
  });
  afterAll(() => fixture.close());

  it('adds stop words, plurals and compounds that change the searches of every index', async () => {
    expect(await ids('shop', { query: 'vintage lamp ', removeStopWords: ['en'] })).toEqual(['1']);
    const stop = await client.batchDictionaryEntries({
      dictionaryName: 'stopwords',
      batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: { objectID: 'sw-vintage', language: 'en', word: 'vintage' } }] },
    });
    const plural = await client.batchDictionaryEntries({
      dictionaryName: 'plurals',
      batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: { objectID: 'pl-blorf', language: 'en', words: ['blorf', 'blorfen'] } }] },
    });
    const compound = await client.batchDictionaryEntries({
      dictionaryName: 'compounds',
      batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: { objectID: 'de-tischlampe', language: 'de', word: 'tischlampe', decomposition: ['tisch', 'lampe'] } }] },
    });
    for (const { taskID } of [stop, plural, compound]) await client.waitForAppTask({ taskID });
    expect(await client.getAppTask({ taskID: compound.taskID })).toEqual({ status: 'published' });

    for (const indexName of ['shop', 'other']) {
      expect(await ids(indexName, { query: 'vintage lamp ', removeStopWords: ['en'] })).toEqual(['1', '2']);
      expect(await ids(indexName, { query: 'blorfen ', ignorePlurals: ['en'] })).toEqual(['3']);
      expect(await ids(indexName, { query: 'tischlampe ', queryLanguages: ['de'], decompoundQuery: true })).toEqual(['4']);
    }
    // Off by the parameters, the entries change nothing.
    expect(await ids('shop', { query: 'vintage lamp ', removeStopWords: false })).toEqual(['1']);

    const found = await client.searchDictionaryEntries({ dictionaryName: 'stopwords', searchDictionaryEntriesParams: { query: 'vint', language: 'en' } });
    expect(found).toEqual({ hits: [{ objectID: 'sw-vintage', language: 'en', word: 'vintage', state: 'enabled', type: 'custom' }], page: 0, nbHits: 1, nbPages: 1 });
    // Standard stop words are found too, marked as such.
    const standard = await client.searchDictionaryEntries({ dictionaryName: 'stopwords', searchDictionaryEntriesParams: { query: 'the', language: 'en' } });
    expect(standard.hits).toContainEqual(expect.objectContaining({ word: 'the', type: 'standard', state: 'enabled' }));

    const languages = await client.getDictionaryLanguages();
    expect(languages.en.stopwords).toEqual({ nbCustomEntries: 1 });
    expect(languages.de.compounds).toEqual({ nbCustomEntries: 1 });
  });

  it('turns standard stop words off and on, and replaces or deletes custom entries', async () => {
    expect(await ids('shop', { query: 'the chair ', removeStopWords: ['en'] })).toEqual(['5']);
    const off = await client.setDictionarySettings({ disableStandardEntries: { stopwords: { en: true } } });
    await client.waitForAppTask({ taskID: off.taskID });
    expect(await client.getDictionarySettings()).toEqual({ disableStandardEntries: { stopwords: { en: true } } });
    const standard = await client.searchDictionaryEntries({ dictionaryName: 'stopwords', searchDictionaryEntriesParams: { query: 'the', language: 'en' } });
    expect(standard.hits.find((hit) => hit.word === 'the')?.state).toBe('disabled');
    // "the" is no stop word any more: a record must now hold it. The custom "vintage" still is one.
    expect(await ids('shop', { query: 'the vintage lamp ', removeStopWords: ['en'] })).toEqual([]);
    expect(await ids('shop', { query: 'vintage lamp ', removeStopWords: ['en'] })).toEqual(['1', '2']);

    const on = await client.setDictionarySettings({ disableStandardEntries: { stopwords: { en: false } } });
    await client.waitForAppTask({ taskID: on.taskID });
    expect(await client.getDictionarySettings()).toEqual({ disableStandardEntries: {} });

    const replaced = await client.batchDictionaryEntries({
      dictionaryName: 'stopwords',
      batchDictionaryEntriesParams: {
        clearExistingDictionaryEntries: true,
        requests: [
          { action: 'addEntry', body: { objectID: 'sw-lamp', language: 'en', word: 'lamp' } },
          { action: 'addEntry', body: { objectID: 'sw-chair', language: 'en', word: 'chair' } },
          { action: 'deleteEntry', body: { objectID: 'sw-chair' } },
        ],
      },
    });
    await client.waitForAppTask({ taskID: replaced.taskID });
    const custom = async (query: string) =>
      (await client.searchDictionaryEntries({ dictionaryName: 'stopwords', searchDictionaryEntriesParams: { query, language: 'en', hitsPerPage: 1000 } })).hits
        .filter((hit) => hit.type === 'custom')
        .map((hit) => hit.objectID);
    expect(await custom('lamp')).toEqual(['sw-lamp']);
    expect(await custom('chair')).toEqual([]);
    expect(await custom('vintage')).toEqual([]);
    expect(await ids('shop', { query: 'vintage lamp ', removeStopWords: ['en'] })).toEqual(['1']);
  });

  it('asks editSettings to write, settings to read, and every index for a write', async () => {
    const reader = connect(await fixture.createKey({ acl: ['settings'] }));
    expect((await reader.getDictionarySettings()).disableStandardEntries).toBeDefined();
    await expect(reader.setDictionarySettings({ disableStandardEntries: {} })).rejects.toMatchObject({ status: 403 });
    const search = connect(SEARCH_KEY);
    await expect(search.getDictionaryLanguages()).rejects.toMatchObject({ status: 403 });
    const scoped = connect(await fixture.createKey({ acl: ['editSettings', 'settings'], indexes: ['shop'] }));
    await expect(
      scoped.batchDictionaryEntries({ dictionaryName: 'stopwords', batchDictionaryEntriesParams: { requests: [{ action: 'addEntry', body: { objectID: 'x', language: 'en', word: 'x' } }] } }),
    ).rejects.toMatchObject({ status: 403, message: 'Index not allowed with this API key' });
  });

  it('refuses bad requests whole, with a 4xx naming the fault', async () => {
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['POST', '/1/dictionaries/synonyms/batch', { requests: [] }, /dictionaryName/],
      ['POST', '/1/dictionaries/stopwords/batch', { requests: [{ action: 'addEntry', body: { objectID: 'a', language: 'en' } }] }, /requests\[0\]\.body\.word/],
      ['POST', '/1/dictionaries/plurals/batch', { requests: [{ action: 'addEntry', body: { objectID: 'a', language: 'en', words: ['one'] } }] }, /words/],
      ['POST', '/1/dictionaries/stopwords/batch', { requests: [{ action: 'addEntry', body: { objectID: 'a', word: 'a' } }] }, /language/],
      ['POST', '/1/dictionaries/stopwords/batch', { requests: [{ action: 'addEntry', body: { objectID: 'ok', language: 'en', word: 'ok' } }, { action: 'drop', body: {} }] }, /requests\[1\]\.action/],
      ['POST', '/1/dictionaries/stopwords/batch', { requests: [{ action: 'addEntry', body: { objectID: 'a', language: 'en', word: 'x'.repeat(300) } }] }, /too long/],
      ['POST', '/1/dictionaries/stopwords/search', {}, /query/],
      ['PUT', '/1/dictionaries/*/settings', { disableStandardEntries: { stopwords: { en: 'yes' } } }, /disableStandardEntries/],
      ['PUT', '/1/dictionaries/*/settings', '{"disableStandardEntries":{"__proto__":{"en":true}}}', /__proto__/],
    ];
    for (const [method, path, body, message] of cases) {
      const { status, body: answer } = await fixture.call(method, path, body);
      expect(status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(answer.message).toMatch(message);
      expect(answer.status).toBe(400);
    }
    // Nothing of a refused batch was applied: "ok" came before the bad request.
    const found = await client.searchDictionaryEntries({ dictionaryName: 'stopwords', searchDictionaryEntriesParams: { query: 'ok', language: 'en' } });
    expect(found.hits.filter((hit) => hit.type === 'custom')).toEqual([]);
    expect((await fixture.call('GET', '/1/dictionaries/stopwords/settings')).status).toBe(404);
  });
});
