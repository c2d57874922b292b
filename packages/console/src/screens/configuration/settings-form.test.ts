import { describe, expect, it } from 'vitest';
import { formToSettings, replicaSortOf, replicaSortSettings, settingsToForm } from './settings-form.ts';

describe('settings form', () => {
  const settings = {
    searchableAttributes: ['name', 'unordered(description)', 'brand,category'],
    attributesForFaceting: ['searchable(brand)', 'filterOnly(sku)', 'price'],
    customRanking: ['desc(rating)', 'asc(price)'],
    ranking: ['asc(price)', 'typo', 'custom'],
    attributesToHighlight: ['name'],
    replicas: ['products_price_asc', 'virtual(products_relevant)'],
    typoTolerance: 'min' as const,
    minWordSizefor1Typo: 3,
    minWordSizefor2Typos: 7,
    highlightPreTag: '<mark>',
    highlightPostTag: '</mark>',
    distinct: 1,
    attributeForDistinct: 'group',
  };

  it('reads modifiers into rows and writes the same settings back', () => {
    const form = settingsToForm(settings);
    expect(form.lists.searchableAttributes[1]).toEqual({ value: 'description', modifier: 'unordered' });
    expect(form.lists.attributesForFaceting.map((row) => row.modifier)).toEqual(['searchable', 'filterOnly', 'filter and facet']);
    expect(form.lists.customRanking[1]).toEqual({ value: 'price', modifier: 'asc' });
    expect(form.lists.ranking[0]).toEqual({ value: 'asc(price)', modifier: 'criterion' });
    expect(form.lists.replicas[1]).toEqual({ value: 'products_relevant', modifier: 'virtual' });
    expect(formToSettings(form)).toEqual(settings);
  });

  it('fills defaults for an empty index and drops blank rows', () => {
    const form = settingsToForm({});
    expect(form.typoTolerance).toBe('true');
    expect(form.lists.ranking.map((row) => row.value)).toContain('typo');
    form.lists.searchableAttributes.push({ value: '  ', modifier: 'ordered' });
    expect(formToSettings(form)).toMatchObject({ searchableAttributes: [], typoTolerance: true, distinct: 0 });
  });

  it('sorts replicas: standard ones by ranking, virtual ones by custom ranking', () => {
    expect(replicaSortSettings(false, 'price', 'asc').ranking?.[0]).toBe('asc(price)');
    expect(replicaSortSettings(true, 'price', 'desc')).toEqual({ customRanking: ['desc(price)'] });
    expect(replicaSortOf(false, { ranking: ['desc(price)', 'typo'] })).toEqual({ attribute: 'price', direction: 'desc' });
    expect(replicaSortOf(true, { customRanking: [] })).toBeUndefined();
  });
});
