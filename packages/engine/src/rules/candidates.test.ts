/**
 * The rule index is only a shortcut: for any rules and any query, every rule whose condition holds is among the
 * candidates a search weighs (oracle: matching every condition of every rule), and a rule keyed on a word the
 * query lacks is skipped.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Condition, Rule } from '@vitrine/protocol';
import { terms } from '../tokenize/index.ts';
import { candidatesFor, indexRules } from './candidates.ts';
import { conditionsOf, matchCondition, type RuleRequest } from './match.ts';

const WORDS = ['lamp', 'lamps', 'desk', 'oak', 'red', 'chair', 'Sale!', 'déjà'];

const condition: fc.Arbitrary<Condition> = fc.record(
  {
    pattern: fc.oneof(fc.constant(''), fc.constant('{facet:brand}'), fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' '))),
    anchoring: fc.constantFrom('is', 'startsWith', 'endsWith', 'contains'),
    alternatives: fc.boolean(),
    context: fc.constantFrom('home', 'category'),
  },
  { requiredKeys: [] },
);

const rules: fc.Arbitrary<Rule[]> = fc.array(fc.array(condition, { maxLength: 3 }), { maxLength: 12 }).map((list) =>
  list.map((conditions, i) => ({ objectID: `r${i}`, conditions, consequence: { userData: { i } } })),
);

function request(query: string): RuleRequest {
  return {
    words: terms(query, ''),
    contexts: new Set(['home']),
    filterFacts: new Set(),
    nowSeconds: 0,
    facetValues: () => ({ byTerms: new Map([['oak', 'Oak']]), maxWords: 1 }),
    synonyms: null,
    separators: '',
  };
}

describe('rule candidates', () => {
  it('include every rule whose condition holds', () => {
    fc.assert(
      fc.property(rules, fc.array(fc.constantFrom(...WORDS), { maxLength: 4 }), (set, words) => {
        const req = request(words.join(' '));
        const holding = set.filter((rule) => conditionsOf(rule).length === 0 || conditionsOf(rule).some((c) => matchCondition(c, req) !== null));
        const candidates = new Set(candidatesFor(indexRules(set, ''), req.words));
        for (const rule of holding) expect(candidates.has(rule)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('skips a literal rule whose first word the query lacks, and weighs the others on every search', () => {
    const set: Rule[] = [
      { objectID: 'literal', conditions: [{ pattern: 'desk lamp', anchoring: 'contains' }], consequence: {} },
      { objectID: 'alternatives', conditions: [{ pattern: 'lamp', anchoring: 'is', alternatives: true }], consequence: {} },
      { objectID: 'context', conditions: [{ context: 'home' }], consequence: {} },
      { objectID: 'placeholder', conditions: [{ pattern: '{facet:brand}', anchoring: 'is' }], consequence: {} },
    ];
    const index = indexRules(set, '');
    expect(candidatesFor(index, ['oak', 'chair']).map((r) => r.objectID).sort()).toEqual(['alternatives', 'context', 'placeholder']);
    expect(candidatesFor(index, ['desk']).map((r) => r.objectID)).toContain('literal');
  });
});
