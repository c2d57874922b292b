import { describe, expect, it } from 'vitest';
import { categoryContext } from '@vitrine/demo';
import { bannersFrom, categoryRuleContext, resolveRuleUrl } from './rules.ts';

describe('bannersFrom', () => {
  it('keeps banner items and their string fields only', () => {
    const items = [
      { type: 'banner', title: 'Winter sale', text: 'Up to 30% off', link: '/', image: '/images/sale.svg', extra: 1 },
      { type: 'notice', title: 'Not a banner' },
      'text',
      null,
      { type: 'banner', title: 42, text: 'Only text' },
    ];
    expect(bannersFrom(items)).toEqual([
      { title: 'Winter sale', text: 'Up to 30% off', link: '/', image: '/images/sale.svg' },
      { title: undefined, text: 'Only text', link: undefined, image: undefined },
    ]);
  });

  it('drops links that are not http(s) and banners with nothing to show', () => {
    expect(bannersFrom([{ type: 'banner', title: 'X', link: 'javascript:alert(1)' }])).toEqual([
      { title: 'X', text: undefined, link: undefined, image: undefined },
    ]);
    expect(bannersFrom([{ type: 'banner', link: '/' }])).toEqual([]);
  });
});

describe('resolveRuleUrl', () => {
  const origin = 'https://shop.example';
  it('tells in-app paths from other sites and refuses other schemes', () => {
    expect(resolveRuleUrl('/help', origin)).toEqual({ inApp: '/help' });
    expect(resolveRuleUrl('https://shop.example/c/lighting?q=lamp#top', origin)).toEqual({ inApp: '/c/lighting?q=lamp#top' });
    expect(resolveRuleUrl('https://other.example/page', origin)).toEqual({ external: 'https://other.example/page' });
    expect(resolveRuleUrl('javascript:alert(1)', origin)).toBeUndefined();
    expect(resolveRuleUrl('data:text/html,hi', origin)).toBeUndefined();
  });
});

describe('categoryRuleContext', () => {
  it('matches the context the demo rules are written for', () => {
    for (const department of ['Home & Kitchen', "Women's Clothing", 'Électronique', 'Sports']) {
      expect(categoryRuleContext(department)).toBe(categoryContext(department));
    }
  });
});
