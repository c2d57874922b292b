import { describe, expect, it } from 'vitest';
import { demoReplicaSettings, demoReplicas, demoSettings } from './settings.ts';
import { generateProducts } from './generate.ts';

describe('demo settings', () => {
  it('starts with dynamic re-ranking on, learned from the generated history', () => {
    expect(demoSettings.enableReRanking).toBe(true);
  });

  it('declares every replica it configures, the relevant-sort one as virtual', () => {
    expect(demoSettings.replicas).toEqual([
      demoReplicas.priceAsc,
      demoReplicas.priceDesc,
      `virtual(${demoReplicas.relevantPriceAsc})`,
    ]);
    expect(Object.keys(demoReplicaSettings).sort()).toEqual(Object.values(demoReplicas).sort());
  });

  it('sorts the standard replicas by price before relevance', () => {
    expect(demoReplicaSettings[demoReplicas.priceAsc].ranking?.[0]).toBe('asc(price)');
    expect(demoReplicaSettings[demoReplicas.priceDesc].ranking?.[0]).toBe('desc(price)');
    expect(demoReplicaSettings[demoReplicas.relevantPriceAsc]).toMatchObject({ customRanking: ['asc(price)'] });
    expect(demoReplicaSettings[demoReplicas.relevantPriceAsc].relevancyStrictness).toBeGreaterThan(0);
  });

  it('highlights on every sort what a hit shows highlighted', () => {
    for (const settings of [demoSettings, demoReplicaSettings[demoReplicas.priceAsc], demoReplicaSettings[demoReplicas.priceDesc]]) {
      expect(settings.attributesToHighlight).toEqual(['name']);
    }
  });

  it('groups variants by groupID for distinct and the variant picker, leaving distinct to each request', () => {
    for (const settings of [demoSettings, demoReplicaSettings[demoReplicas.priceAsc], demoReplicaSettings[demoReplicas.priceDesc]]) {
      expect(settings.attributeForDistinct).toBe('groupID');
      expect(settings.distinct).toBeUndefined();
    }
    expect(demoSettings.attributesForFaceting).toContain('filterOnly(groupID)');
  });

  it('only names attributes the products have', () => {
    const [product] = [...generateProducts(1)];
    const attributeOf = (entry: string) => entry.replace(/^\w+\((.*)\)$/, '$1');
    const names = [
      ...demoSettings.searchableAttributes!.flatMap((entry) => attributeOf(entry).split(',')),
      ...demoSettings.attributesForFaceting!.map(attributeOf),
      ...demoSettings.customRanking!.map(attributeOf),
      ...demoSettings.attributesToHighlight!,
      ...demoSettings.attributesToSnippet!.map((entry) => entry.split(':')[0]),
    ];
    for (const name of names) {
      const value = name.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown>)[key], product);
      expect(value, name).toBeDefined();
    }
  });
});
