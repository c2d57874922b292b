import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Rule } from 'algoliasearch';
import { emptyRuleForm, formProblem, formToRule, ruleToForm, withPicked } from './rule-form.ts';
import type { RuleForm } from './rule-form.ts';

const readable = (rule: Rule) => {
  const reading = ruleToForm(rule);
  if (!reading.ok) throw new Error(`not readable: ${reading.reasons.join('; ')}`);
  return reading.form;
};

const reasonsOf = (rule: unknown) => {
  const reading = ruleToForm(rule as Rule);
  return reading.ok ? [] : reading.reasons;
};

describe('the rule form', () => {
  it('writes a banner, pins, hides, facet filters and boosts, a redirect and a validity period as Algolia reads them', () => {
    const form: RuleForm = {
      ...emptyRuleForm('r1', 'lamp'),
      match: 'contains',
      alternatives: true,
      context: 'category-lighting',
      pins: [{ objectID: '7', position: 0 }, { objectID: '9', position: 3 }],
      hides: ['12'],
      banner: { title: 'Lamps week', text: '20% off', image: '', link: '/c/home/lighting' },
      facetActions: [
        { facet: 'brand', value: 'Acme', mode: 'filter', score: 1 },
        { facet: 'color', value: 'red', mode: 'boost', score: 3 },
        { facet: 'color', value: 'blue', mode: 'boost', score: 1 },
      ],
      removeWords: ['cheap', ' '],
      redirect: '',
      validFrom: '2026-12-01T00:00',
      validUntil: '2026-12-24T18:30',
    };
    expect(formToRule(form)).toEqual({
      objectID: 'r1',
      conditions: [{ pattern: 'lamp', anchoring: 'contains', alternatives: true, context: 'category-lighting' }],
      consequence: {
        params: {
          query: { edits: [{ type: 'remove', delete: 'cheap' }] },
          facetFilters: ['brand:Acme'],
          optionalFilters: ['color:red<score=3>', 'color:blue'],
        },
        promote: [{ objectID: '7', position: 0 }, { objectID: '9', position: 3 }],
        hide: [{ objectID: '12' }],
        userData: { type: 'banner', title: 'Lamps week', text: '20% off', link: '/c/home/lighting' },
      },
      validity: [{ from: Date.UTC(2026, 11, 1) / 1000, until: Date.UTC(2026, 11, 24, 18, 30) / 1000 }],
    });
  });

  it('reads the demo rules back into the form (the sale banner, the help redirect, the pinned lamp, the boosted brand)', () => {
    const rules: Rule[] = [
      { objectID: 'demo-sale-banner', description: 'Sale', conditions: [{ pattern: 'sale', anchoring: 'contains' }], consequence: { params: { query: { edits: [{ type: 'remove', delete: 'sale' }] } }, userData: { type: 'banner', title: 'Winter sale', text: 'Up to 30% off', link: '/' } } },
      { objectID: 'demo-help-redirect', conditions: [{ pattern: 'help', anchoring: 'is' }], consequence: { params: { renderingContent: { redirect: { url: '/help' } } } } },
      { objectID: 'demo-pinned-lamp', conditions: [{ pattern: 'lamp', anchoring: 'contains', alternatives: true }], consequence: { promote: [{ objectID: '42', position: 0 }], filterPromotes: true } },
      { objectID: 'demo-boosted-brand', conditions: [{ context: 'category-home' }], consequence: { params: { optionalFilters: ['brand:Acme<score=5>'] } } },
    ];
    for (const rule of rules) expect(formToRule(readable(rule)), rule.objectID).toEqual(rule);
    expect(readable(rules[0]).banner).toEqual({ title: 'Winter sale', text: 'Up to 30% off', image: '', link: '/' });
    expect(readable(rules[1]).redirect).toBe('/help');
    expect(readable(rules[3])).toMatchObject({ match: 'any', context: 'category-home', facetActions: [{ facet: 'brand', value: 'Acme', mode: 'boost', score: 5 }] });
  });

  it('leaves what the server adds out (highlighting, metadata) and reads defaults written out as the same rule', () => {
    const rule = { objectID: 'r', enabled: true, conditions: [{ pattern: 'x', anchoring: 'is', alternatives: false }], consequence: { promote: [], hide: [] }, _highlightResult: {}, _metadata: { lastUpdate: 1 } };
    expect(readable(rule as unknown as Rule)).toMatchObject({ objectID: 'r', enabled: true, match: 'is', pattern: 'x', pins: [], hides: [] });
  });

  it('says why a rule stays JSON', () => {
    expect(reasonsOf({ objectID: 'r', conditions: [{ pattern: 'a', anchoring: 'is' }, { pattern: 'b', anchoring: 'is' }], consequence: {} })).toEqual(['it has 2 conditions (the form edits one)']);
    expect(reasonsOf({ objectID: 'r', consequence: { promote: [{ objectIDs: ['1', '2'], position: 0 }] } })).toEqual(['it pins a group of results together (objectIDs)']);
    expect(reasonsOf({ objectID: 'r', consequence: { userData: { campaign: 'x' } } })).toEqual(['its userData is not a banner (type, title, text, image, link)']);
    expect(reasonsOf({ objectID: 'r', consequence: { params: { query: 'other' } } })).toEqual(['it replaces the whole query']);
    expect(reasonsOf({ objectID: 'r', consequence: { params: { facetFilters: [['a:1', 'a:2']] } } })).toEqual(['its facet filters are not a flat list of "facet:value" (the form writes no OR groups)']);
    expect(reasonsOf({ objectID: 'r', consequence: { params: { hitsPerPage: 5 } } })).toEqual(['it sets the search parameters hitsPerPage']);
    expect(reasonsOf({ objectID: 'r', consequence: { redirect: { indexName: 'x' } } })).toEqual(['its consequence has redirect']);
    expect(reasonsOf({ objectID: 'r', tags: ['a'], consequence: {} })).toEqual(['it has tags']);
    expect(reasonsOf({ objectID: 'r', consequence: {}, validity: [{ from: 1, until: 120 }] })).toEqual(['its validity does not start and end on a whole minute']);
    expect(reasonsOf({ objectID: 'r', consequence: { params: { facetFilters: ['brand:Acme', 'brand:Acme '] } } })).toEqual(['the form would write it differently']);
  });

  it('writes back every form it reads, and reads back every rule it writes (generated forms)', () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
    const minute = fc.integer({ min: 0, max: 33_000_000 }).map((n) => new Date(n * 60_000).toISOString().slice(0, 16));
    const formArb = fc.record({
      objectID: word, description: fc.constantFrom('', 'Winter'), enabled: fc.boolean(),
      match: fc.constantFrom('any', 'is', 'contains', 'startsWith', 'endsWith'), pattern: fc.constantFrom('', 'lamp', 'red shoes'), alternatives: fc.boolean(),
      context: fc.constantFrom('', 'mobile'), conditionFilters: fc.constantFrom('', 'brand:Acme'), removeWords: fc.array(word, { maxLength: 2 }),
      pins: fc.uniqueArray(word, { maxLength: 3 }).map((ids) => ids.map((objectID, position) => ({ objectID, position }))), filterPromotes: fc.boolean(),
      hides: fc.uniqueArray(word, { maxLength: 2 }),
      banner: fc.record({ title: fc.constantFrom('', 'Sale'), text: fc.constantFrom('', 'Now'), image: fc.constantFrom('', '/images/a.svg'), link: fc.constantFrom('', '/help') }),
      facetActions: fc.array(fc.record({ facet: word, value: word, mode: fc.constantFrom('filter', 'boost'), score: fc.integer({ min: 1, max: 9 }) }), { maxLength: 3 }),
      filters: fc.constantFrom('', 'price < 100'), redirect: fc.constantFrom('', '/help'), validFrom: fc.option(minute, { nil: '' }), validUntil: fc.option(minute, { nil: '' }),
    }) as fc.Arbitrary<RuleForm>;
    fc.assert(
      fc.property(formArb, (form) => {
        const rule = formToRule(form);
        const reading = ruleToForm(rule);
        expect(reading).toMatchObject({ ok: true });
        if (reading.ok) expect(formToRule(reading.form)).toEqual(rule);
      }),
      { numRuns: 300 },
    );
  });

  it('adds results picked in the preview: pins after the others, a result either pinned or hidden', () => {
    let form = emptyRuleForm('r', 'lamp');
    form = withPicked(withPicked(form, 'a', 'pin'), 'b', 'pin');
    expect(form.pins).toEqual([{ objectID: 'a', position: 0 }, { objectID: 'b', position: 1 }]);
    expect(withPicked(form, 'a', 'pin')).toBe(form);
    form = withPicked(form, 'a', 'hide');
    expect(form).toMatchObject({ pins: [{ objectID: 'b', position: 1 }], hides: ['a'] });
  });

  it('refuses a form without an objectID or with a validity period that ends before it starts', () => {
    expect(formProblem(emptyRuleForm(' ', 'x'))).toBe('A rule needs an objectID.');
    expect(formProblem({ ...emptyRuleForm('r', 'x'), validFrom: '2026-12-02T00:00', validUntil: '2026-12-01T00:00' })).toBe('The validity period ends before it starts.');
    expect(formProblem(emptyRuleForm('r', 'x'))).toBe('');
  });
});
