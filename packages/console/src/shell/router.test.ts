import { describe, expect, it } from 'vitest';
import { screenHref, screenPathOf } from './router.ts';

describe('console addresses', () => {
  it('reads the screen of an address under /admin', () => {
    expect(screenPathOf('/admin')).toBe('');
    expect(screenPathOf('/admin/')).toBe('');
    expect(screenPathOf('/admin/rules')).toBe('rules');
    expect(screenPathOf('/admin/rules/')).toBe('rules');
    // Deeper addresses are no screen's: the console says it has none there.
    expect(screenPathOf('/admin/rules/x')).toBeUndefined();
  });

  it('keeps the index in a screen’s address', () => {
    expect(screenHref('synonyms', 'products & co')).toBe('/admin/synonyms?index=products%20%26%20co');
  });
});
