import { describe, expect, it } from 'vitest';
import { conditionSummary, consequenceSummary, newRecommendRule } from './recommend-rule-draft.ts';

describe('Recommend rule drafts', () => {
  it('starts a rule that applies everywhere and does nothing yet', () => {
    const rule = newRecommendRule();
    expect(rule.objectID).toMatch(/^rr-\d+$/);
    expect(conditionSummary(rule)).toBe('every recommendation');
    expect(consequenceSummary(rule)).toBe('nothing yet');
  });

  it('sums up a condition and its consequences in one line each', () => {
    const rule = {
      objectID: 'r',
      condition: { filters: 'brand:Lumio', context: 'mobile' },
      consequence: {
        promote: [{ objectID: 'p1', position: 0 }],
        hide: [{ objectID: 'p2' }],
        params: { filters: 'price < 50', automaticFacetFilters: [{ facet: 'color' }, { facet: 'brand', negative: true }], optionalFilters: ['brand:Oak<score=2>'] },
      },
    };
    expect(conditionSummary(rule)).toBe('viewed item matches brand:Lumio; context mobile');
    expect(consequenceSummary(rule)).toBe('pins p1@0; hides p2; filters price < 50; same color, another brand as the viewed item; boosts/buries brand:Oak<score=2>');
  });
});
