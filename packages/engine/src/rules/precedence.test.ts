/**
 * Several matching rules: Algolia's precedence criteria, one test each (the two rules tie on every criterion
 * before the one tested), and the dropping of the lower rule of each conflicting pair. Every pair here
 * conflicts (same words, or both replacing the query), so only the winner applies; `appliedRules` names it.
 */
import { describe, expect, it } from 'vitest';
import type { Condition, Rule } from '@vitrine/protocol';
import { SearchIndex } from '../index.ts';

function indexWith(rules: Rule[]): SearchIndex {
  const index = new SearchIndex({ searchableAttributes: ['name'], attributesForFaceting: ['brand', 'color'] });
  index.saveObjects([
    { objectID: 'a', name: 'red lamp', brand: 'red', color: 'red' },
    { objectID: 'b', name: 'blue lamp', brand: 'Lumen', color: 'blue' },
  ]);
  index.setRules(rules);
  return index;
}

/** A rule replacing the whole query (so any two of them conflict), tagged by its id. */
const rule = (objectID: string, condition: Condition, extra: Partial<Rule> = {}): Rule => ({
  objectID,
  conditions: [condition],
  consequence: { params: { query: objectID }, userData: objectID },
  ...extra,
});

function winner(rules: Rule[], params: Record<string, unknown>, nowSeconds = 100): string[] {
  return (indexWith(rules).search({ getRankingInfo: true, ...params }, undefined, { nowSeconds }).appliedRules ?? []).map((r) => r.objectID);
}

describe('precedence criteria, in order', () => {
  it('1. position: the match nearest the start of the query wins', () => {
    expect(winner([rule('a-late', { pattern: 'lamp', anchoring: 'contains' }), rule('z-early', { pattern: 'red', anchoring: 'contains' })], { query: 'red lamp' })).toEqual(['z-early']);
  });

  it('2. match length: more words (and filters) matched wins', () => {
    expect(winner([rule('a-short', { pattern: 'red', anchoring: 'startsWith' }), rule('z-long', { pattern: 'red lamp', anchoring: 'startsWith' })], { query: 'red lamp shade' })).toEqual(['z-long']);
    // One word plus one filter of the request beats one word.
    expect(
      winner([rule('a-word', { pattern: 'red', anchoring: 'contains' }), rule('z-word-filter', { pattern: 'red', anchoring: 'contains', filters: 'color:red' })], { query: 'red', filters: 'color:red' }),
    ).toEqual(['z-word-filter']);
  });

  it('3. anchoring: is > startsWith > endsWith > contains', () => {
    const q = { query: 'lamp' };
    expect(winner([rule('a', { pattern: 'lamp', anchoring: 'startsWith' }), rule('z', { pattern: 'lamp', anchoring: 'is' })], q)).toEqual(['z']);
    expect(winner([rule('a', { pattern: 'lamp', anchoring: 'endsWith' }), rule('z', { pattern: 'lamp', anchoring: 'startsWith' })], q)).toEqual(['z']);
    expect(winner([rule('a', { pattern: 'lamp', anchoring: 'contains' }), rule('z', { pattern: 'lamp', anchoring: 'endsWith' })], q)).toEqual(['z']);
  });

  it('4. context: a rule with a context wins over one without', () => {
    expect(winner([rule('a', { pattern: 'lamp', anchoring: 'is' }), rule('z', { pattern: 'lamp', anchoring: 'is', context: 'shop' })], { query: 'lamp', ruleContexts: ['shop'] })).toEqual(['z']);
  });

  it('5. filters: a rule with filters wins over a general one (at equal length)', () => {
    // No pattern: both have length 0 except for matched filters, so compare a filter rule with a context rule
    // of equal length to reach this criterion without a length difference.
    expect(winner([rule('a', { context: 'shop' }), rule('z', { context: 'shop', filters: 'color:red' })], { ruleContexts: ['shop'], filters: 'color:red' })).toEqual(['z']);
  });

  it('6. literals over placeholders', () => {
    expect(winner([rule('a', { pattern: '{facet:brand}', anchoring: 'is' }), rule('z', { pattern: 'red', anchoring: 'is' })], { query: 'red' })).toEqual(['z']);
  });

  it('7. temporary over permanent', () => {
    expect(winner([rule('a', { pattern: 'lamp', anchoring: 'is' }), rule('z', { pattern: 'lamp', anchoring: 'is' }, { validity: [{ from: 0, until: 1000 }] })], { query: 'lamp' })).toEqual(['z']);
  });

  it('8. the smaller objectID, lexicographically, breaks any remaining tie', () => {
    expect(winner([rule('rule-b', { pattern: 'lamp', anchoring: 'is' }), rule('rule-a', { pattern: 'lamp', anchoring: 'is' })], { query: 'lamp' })).toEqual(['rule-a']);
  });
});

describe('conflicts', () => {
  const tagOnly = (objectID: string, condition: Condition): Rule => ({ objectID, conditions: [condition], consequence: { userData: objectID } });

  it('rules on distinct words apply together, in precedence order; overlapping words drop the lower rule', () => {
    const rules = [tagOnly('lamp', { pattern: 'lamp', anchoring: 'contains' }), tagOnly('red', { pattern: 'red', anchoring: 'contains' }), tagOnly('red-lamp-x', { pattern: 'lamp', anchoring: 'endsWith' })];
    const response = indexWith(rules).search({ query: 'red lamp', getRankingInfo: true });
    // red (position 0) > red-lamp-x (position 1, endsWith) > lamp (position 1, contains): the last overlaps red-lamp-x.
    expect(response.appliedRules).toEqual([{ objectID: 'red' }, { objectID: 'red-lamp-x' }]);
    expect(response.userData).toEqual(['red', 'red-lamp-x']);
  });

  it('rules without patterns never overlap: a context rule and a filters rule both apply', () => {
    const rules = [tagOnly('ctx', { context: 'shop' }), tagOnly('flt', { filters: 'color:red' })];
    // The matched filter counts in the match length, which comes before context.
    expect(winner(rules, { ruleContexts: ['shop'], filters: 'color:red' })).toEqual(['flt', 'ctx']);
  });

  it('two rules replacing the whole query conflict even on different words', () => {
    expect(winner([rule('red', { pattern: 'red', anchoring: 'contains' }), rule('lamp', { pattern: 'lamp', anchoring: 'contains' })], { query: 'red lamp' })).toEqual(['red']);
  });
});
