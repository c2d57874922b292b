/**
 * Dictionary writes as the log holds them: requests reduced to the spec's fields (nothing else stored), the
 * settings merged per language, and every engine of the registry, present or added later, given the result.
 */
import { describe, expect, it } from 'vitest';
import { applyOp } from './apply.ts';
import { parseDictionaryBatch, parseDictionarySettings } from './dictionaries.ts';
import { IndexRegistry } from './registry.ts';

const AT = '2026-01-01T00:00:00.000Z';

describe('dictionary operations', () => {
  it('stores only the fields of the spec, with the defaults', () => {
    const op = parseDictionaryBatch('compounds', {
      requests: [{ action: 'addEntry', body: { objectID: 'c', language: 'DE', word: 'Tischlampe', decomposition: ['tisch', 'lampe'], extra: 1, type: 'standard' } }],
    }, AT);
    expect(op.requests).toEqual([{ action: 'addEntry', entry: { objectID: 'c', language: 'de', word: 'Tischlampe', decomposition: ['tisch', 'lampe'], state: 'enabled', type: 'custom' } }]);
  });

  it('merges settings per language; false turns a language back on, null a whole dictionary', () => {
    const registry = new IndexRegistry();
    const set = (body: unknown) => applyOp(registry, parseDictionarySettings(body, AT));
    set({ disableStandardEntries: { stopwords: { en: true, fr: true }, plurals: { en: true } } });
    set({ disableStandardEntries: { stopwords: { fr: false, de: true } } });
    expect(registry.dictionaries.state.settings).toEqual({ disableStandardEntries: { stopwords: { en: true, de: true }, plurals: { en: true } } });
    set({ disableStandardEntries: { plurals: null } });
    expect(registry.dictionaries.state.settings).toEqual({ disableStandardEntries: { stopwords: { en: true, de: true } } });
    expect(registry.dictionaries.standardEnabled('stopwords', 'en')).toBe(false);
    expect(registry.dictionaries.standardEnabled('stopwords', 'fr')).toBe(true);
  });

  it('gives the dictionaries to engines present and to those created after', () => {
    const registry = new IndexRegistry();
    const before = registry.ensure('before', AT).engine!;
    const records = [{ objectID: '1', name: 'blorf lamp' }, { objectID: '2', name: 'lamp' }];
    before.saveObjects(records);
    applyOp(registry, parseDictionaryBatch('stopwords', { requests: [{ action: 'addEntry', body: { objectID: 's', language: 'en', word: 'blorf' } }] }, AT));
    const after = registry.ensure('after', AT).engine!;
    after.saveObjects(records);
    for (const engine of [before, after]) {
      expect(engine.search({ query: 'blorf lamp ', removeStopWords: ['en'] }).nbHits).toBe(2);
      expect(engine.search({ query: 'blorf lamp ', removeStopWords: false }).nbHits).toBe(1);
    }
  });
});
