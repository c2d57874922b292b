import { describe, expect, it } from 'vitest';
import { formToKey, keyToForm } from './key-form.ts';

describe('key form', () => {
  it('writes comma-separated lists as arrays and reads them back', () => {
    const key = formToKey({ description: 'shop', acl: ['search', 'browse'], indexes: 'products, products_*, ', referers: 'https://shop.example/*', maxQueriesPerIPPerHour: 100, maxHitsPerQuery: 20, validity: 3600, queryParameters: ' filters=brand:Acme ' });
    expect(key).toEqual({ description: 'shop', acl: ['search', 'browse'], indexes: ['products', 'products_*'], referers: ['https://shop.example/*'], maxQueriesPerIPPerHour: 100, maxHitsPerQuery: 20, validity: 3600, queryParameters: 'filters=brand:Acme' });
    expect(keyToForm({ ...key, value: 'v', createdAt: 0 }).indexes).toBe('products, products_*');
  });
});
