import { describe, expect, it } from 'vitest';
import { pageFor } from './navigation.ts';

describe('pageFor', () => {
  it('tells the kinds of page apart by path', () => {
    expect(pageFor('/')).toEqual({ kind: 'search' });
    expect(pageFor('/c/lighting')).toEqual({ kind: 'search' });
    expect(pageFor('/cart')).toEqual({ kind: 'cart' });
    expect(pageFor('/help')).toEqual({ kind: 'help' });
    expect(pageFor('/admin/analytics')).toEqual({ kind: 'console', section: 'analytics' });
    expect(pageFor('/admin/analytics/')).toEqual({ kind: 'console', section: 'analytics' });
    expect(pageFor('/admin')).toEqual({ kind: 'console', section: 'indices' });
    expect(pageFor('/admin/synonyms')).toEqual({ kind: 'console', section: 'synonyms' });
    expect(pageFor('/admin/nothing-here')).toEqual({ kind: 'search' });
    expect(pageFor('/p/desk-lamp-42')).toEqual({ kind: 'product', objectID: '42' });
  });
});
