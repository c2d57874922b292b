import { describe, expect, it } from 'vitest';
import { indexAllowed, ipInCidr, matchesPattern, refererAllowed, sourceAllowed } from './acl.ts';

describe('matchesPattern', () => {
  it('matches prefix, suffix, infix and exact patterns', () => {
    expect(matchesPattern('prod_*', 'prod_products')).toBe(true);
    expect(matchesPattern('prod_*', 'dev_products')).toBe(false);
    expect(matchesPattern('*_dev', 'products_dev')).toBe(true);
    expect(matchesPattern('*_products_*', 'en_products_v2')).toBe(true);
    expect(matchesPattern('*_products_*', 'en_product_v2')).toBe(false);
    expect(matchesPattern('products', 'products')).toBe(true);
    expect(matchesPattern('products', 'products2')).toBe(false);
    expect(matchesPattern('*', 'anything')).toBe(true);
  });
  it('does not let prefix and suffix overlap', () => {
    expect(matchesPattern('ab*ba', 'aba')).toBe(false);
    expect(matchesPattern('ab*ba', 'abba')).toBe(true);
  });
});

describe('indexAllowed / refererAllowed', () => {
  it('allows everything without patterns', () => {
    expect(indexAllowed([], 'x')).toBe(true);
    expect(refererAllowed([], undefined)).toBe(true);
  });
  it('checks referers with and without scheme', () => {
    expect(refererAllowed(['*.example.com/*'], 'https://shop.example.com/cart')).toBe(true);
    expect(refererAllowed(['https://example.com/*'], 'https://example.com/p/1')).toBe(true);
    expect(refererAllowed(['https://example.com/*'], 'https://evil.com/example.com/')).toBe(false);
    expect(refererAllowed(['*.example.com/*'], undefined)).toBe(false);
  });
});

describe('ipInCidr / sourceAllowed', () => {
  it('matches IPv4 ranges and single addresses', () => {
    expect(ipInCidr('192.168.1.7', '192.168.1.0/24')).toBe(true);
    expect(ipInCidr('192.168.2.7', '192.168.1.0/24')).toBe(false);
    expect(ipInCidr('10.1.2.3', '10.0.0.0/8')).toBe(true);
    expect(ipInCidr('127.0.0.1', '127.0.0.1')).toBe(true);
    expect(ipInCidr('127.0.0.2', '127.0.0.1')).toBe(false);
    expect(ipInCidr('1.2.3.4', '0.0.0.0/0')).toBe(true);
  });
  it('treats IPv4-mapped IPv6 addresses as IPv4', () => {
    expect(ipInCidr('::ffff:127.0.0.1', '127.0.0.0/8')).toBe(true);
  });
  it('matches IPv6 ranges', () => {
    expect(ipInCidr('2001:db8::1', '2001:db8::/32')).toBe(true);
    expect(ipInCidr('2001:db9::1', '2001:db8::/32')).toBe(false);
    expect(ipInCidr('::1', '::1/128')).toBe(true);
  });
  it('rejects malformed ranges instead of matching', () => {
    expect(ipInCidr('10.0.0.1', '10.0.0.0/40')).toBe(false);
    expect(ipInCidr('10.0.0.1', 'not-an-ip/8')).toBe(false);
  });
  it('accepts any of a ;-separated list', () => {
    expect(sourceAllowed('10.0.0.0/8;192.168.0.0/16', '192.168.3.4')).toBe(true);
    expect(sourceAllowed('10.0.0.0/8;192.168.0.0/16', '172.16.0.1')).toBe(false);
    expect(sourceAllowed(undefined, '172.16.0.1')).toBe(true);
  });
});
