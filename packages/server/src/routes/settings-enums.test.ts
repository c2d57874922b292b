import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../test-support.ts';
import type { TestApp } from '../test-support.ts';

/** A value outside the list Algolia's spec gives, for each setting (and search parameter) that has one. */
const WRONG: Record<string, unknown> = {
  queryType: 'prefixSome',
  removeWordsIfNoResults: 'lastWord',
  exactOnSingleWordQuery: 'words',
  typoTolerance: 'maybe',
  mode: 'semantic',
  advancedSyntaxFeatures: ['exactPhrase', 'fuzzyPhrase'],
  alternativesAsExact: ['ignorePlurals', 'plurals'],
};

/** Values the spec lists, other than the defaults. */
const RIGHT: Record<string, unknown> = {
  queryType: 'prefixNone',
  removeWordsIfNoResults: 'allOptional',
  exactOnSingleWordQuery: 'word',
  typoTolerance: 'strict',
  mode: 'neuralSearch',
  advancedSyntaxFeatures: ['excludeWords'],
  alternativesAsExact: ['multiWordsSynonym', 'ignoreConjugations'],
};

describe('settings whose values the spec lists', () => {
  let t: TestApp;
  const put = async (settings: unknown) => {
    const response = await t.call('PUT', '/1/indexes/enums/settings', settings);
    if (response.statusCode === 200) await t.settle(response);
    return response;
  };
  const settings = async () => (await t.call('GET', '/1/indexes/enums/settings')).json();
  const search = (body: Record<string, unknown>) => t.call('POST', '/1/indexes/enums/query', { query: 'lamp', ...body });

  beforeAll(async () => {
    t = await createTestApp();
    await t.settle(await t.call('POST', '/1/indexes/enums/batch', {
      requests: [
        { action: 'addObject', body: { objectID: '1', name: 'desk lamp' } },
        { action: 'addObject', body: { objectID: '2', name: 'floor lamp' } },
      ],
    }));
    expect((await put({ hitsPerPage: 5, queryType: 'prefixAll' })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    expect(t.applyErrors).toEqual([]);
  });

  it('refuses each value outside the list with a 400 naming the setting, leaving the settings as they were', async () => {
    const before = await settings();
    for (const [name, value] of Object.entries(WRONG)) {
      // With a valid change beside it: the patch is refused whole.
      const response = await put({ hitsPerPage: 7, [name]: value });
      expect(response.statusCode, name).toBe(400);
      expect(response.json(), name).toEqual({ status: 400, message: expect.stringContaining(`"${name}"`) });
      expect(await settings(), name).toEqual(before);
      // Nothing was stored: the index searches as before (a stored queryType of no search would fail them all).
      expect((await search({})).statusCode, name).toBe(200);
    }
    expect(before).toMatchObject({ hitsPerPage: 5, queryType: 'prefixAll' });
  });

  it('names the offending entry of a list', async () => {
    const response = await put({ alternativesAsExact: ['singleWordSynonym', 'plurals'] });
    expect(response.json().message).toMatch(/alternativesAsExact.*"plurals"/);
  });

  it('accepts every value the spec lists, and null returns a setting to its default', async () => {
    expect((await put(RIGHT)).statusCode).toBe(200);
    expect(await settings()).toMatchObject(RIGHT);
    expect((await search({})).statusCode).toBe(200);
    for (const typoTolerance of [true, false, 'true', 'false', 'min']) {
      expect((await put({ typoTolerance })).statusCode, String(typoTolerance)).toBe(200);
    }
    expect((await put({ queryType: null, mode: null, alternativesAsExact: null })).statusCode).toBe(200);
    expect(await settings()).toMatchObject({ queryType: 'prefixLast', alternativesAsExact: ['ignorePlurals', 'singleWordSynonym'] });
  });

  it('refuses a rule whose consequence sets such a value: every search it matched would fail', async () => {
    const rule = (params: Record<string, unknown>) => ({ objectID: 'lamps', conditions: [{ pattern: 'lamp', anchoring: 'contains' }], consequence: { params } });
    const refused = await t.call('PUT', '/1/indexes/enums/rules/lamps', rule({ queryType: 'prefixSome' }));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/^Invalid rule at the position 0: .*"queryType"/);
    expect((await t.call('GET', '/1/indexes/enums/rules/lamps')).statusCode).toBe(404);
    expect((await search({})).statusCode).toBe(200);
    const saved = await t.call('PUT', '/1/indexes/enums/rules/lamps', rule({ queryType: 'prefixNone', alternativesAsExact: ['multiWordsSynonym'] }));
    expect(saved.statusCode).toBe(200);
    await t.settle(saved);
    expect((await search({})).statusCode).toBe(200);
    // Its parameters would override the next test's.
    await t.settle(await t.call('DELETE', '/1/indexes/enums/rules/lamps'));
  });

  it('refuses the same values as search parameters, in JSON and in a params string', async () => {
    for (const [name, value] of Object.entries(WRONG)) {
      const response = await search({ [name]: value });
      expect(response.statusCode, name).toBe(400);
      expect(response.json().message, name).toContain(`"${name}"`);
    }
    const fromString = await search({ params: 'alternativesAsExact=ignorePlurals,plurals' });
    expect(fromString.statusCode).toBe(400);
    expect((await search({ params: 'advancedSyntaxFeatures=excludeWords&mode=keywordSearch' })).statusCode).toBe(200);
    for (const [name, value] of Object.entries(RIGHT)) {
      expect((await search({ [name]: value })).statusCode, name).toBe(200);
    }
  });
});
