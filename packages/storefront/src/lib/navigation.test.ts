import { describe, expect, it } from 'vitest';
import { pageFor } from './navigation.ts';

describe('pageFor', () => {
  it('tells the kinds of page apart by path', () => {
    expect(pageFor('/')).toEqual({ kind: 'search' });
    expect(pageFor('/c/lighting')).toEqual({ kind: 'search' });
    expect(pageFor('/cart')).toEqual({ kind: 'cart' });
    expect(pageFor('/help')).toEqual({ kind: 'help' });
    // The console routes its own screens (and says when it has none at an address).
    expect(pageFor('/admin/analytics')).toEqual({ kind: 'console' });
    expect(pageFor('/admin/analytics/')).toEqual({ kind: 'console' });
    expect(pageFor('/admin')).toEqual({ kind: 'console' });
    expect(pageFor('/admin/nothing-here')).toEqual({ kind: 'console' });
    expect(pageFor('/administrator')).toEqual({ kind: 'notFound' });
    expect(pageFor('/search')).toEqual({ kind: 'search' });
    expect(pageFor('/nope')).toEqual({ kind: 'notFound' });
    expect(pageFor('/p/desk-lamp-42')).toEqual({ kind: 'product', objectID: '42' });
  });

  it('knows a category path names no category once the tree is known', () => {
    const tree = [{ name: 'Lighting', slug: 'lighting', children: [{ name: 'Lamps', slug: 'lamps', children: [] }] }];
    expect(pageFor('/c/lighting/lamps', tree)).toEqual({ kind: 'search' });
    expect(pageFor('/c/lighting/sofas', tree)).toEqual({ kind: 'notFound' });
    expect(pageFor('/c/nothing', tree)).toEqual({ kind: 'notFound' });
    // Without a tree (it could not be loaded) the path is read as a search, as before.
    expect(pageFor('/c/nothing')).toEqual({ kind: 'search' });
  });
});
