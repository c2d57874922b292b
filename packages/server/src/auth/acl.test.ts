import fc from 'fast-check';
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
    expect(refererAllowed(['https://example.com/*'], 'http://example.com/p/1')).toBe(false);
    expect(refererAllowed(['*.example.com/*'], 'shop.example.com/cart')).toBe(true);
    expect(refererAllowed(['*.example.com/*'], undefined)).toBe(false);
    expect(refererAllowed(['*.example.com/*'], 'not a url')).toBe(false);
  });
  it("follows Algolia's documented forms: a prefix, subdomains, a domain anywhere in the host", () => {
    expect(refererAllowed(['https://algolia.com/*'], 'https://algolia.com/doc/')).toBe(true);
    expect(refererAllowed(['*.algolia.com'], 'https://www.algolia.com/doc/')).toBe(true);
    expect(refererAllowed(['*.algolia.com'], 'https://algolia.com/')).toBe(false);
    expect(refererAllowed(['*algolia.com*'], 'https://shop.algolia.com:8443/x')).toBe(true);
    // An Origin header has no path: it is the site's root.
    expect(refererAllowed(['https://shop.example.com/*'], 'https://shop.example.com')).toBe(true);
  });
  it("never lets a host wildcard reach into the path, query or user-info", () => {
    expect(refererAllowed(['*.example.com/*'], 'https://evil.com/x.example.com/')).toBe(false);
    expect(refererAllowed(['*.example.com'], 'https://evil.com/?next=a.example.com')).toBe(false);
    expect(refererAllowed(['*.example.com/*'], 'https://a.example.com@evil.com/')).toBe(false);
    expect(refererAllowed(['*example.com*'], 'https://evil.com/example.com')).toBe(false);
  });
});

/** A referer URL whose host is `host` and whose other parts may quote `bait` (a domain the attacker does not own). */
const refererWith = (host: fc.Arbitrary<string>, bait: string) =>
  fc.record({
    scheme: fc.constantFrom('http', 'https'),
    userInfo: fc.option(fc.constantFrom(bait, `x.${bait}`, `a:${bait}`), { nil: undefined }),
    host,
    port: fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: undefined }),
    path: fc.array(fc.oneof(fc.webSegment(), fc.constantFrom(bait, `x.${bait}`, `.${bait}`)), { maxLength: 4 }),
    query: fc.option(fc.constantFrom(`next=x.${bait}`, `u=https://${bait}/`), { nil: undefined }),
  }).map(({ scheme, userInfo, host, port, path, query }) => ({
    url: `${scheme}://${userInfo !== undefined ? `${userInfo}@` : ''}${host}${port !== undefined ? `:${port}` : ''}/${path.join('/')}${query !== undefined ? `?${query}` : ''}`,
    scheme,
    host,
  }));

describe('referer host patterns (properties)', () => {
  const domain = fc.domain().map((name) => name.toLowerCase());
  // Hosts an attacker picks: anything, the domain itself, a subdomain of it, or one that merely contains it.
  const hostFor = (target: string) =>
    fc.oneof(fc.domain(), fc.constant(target), fc.domain().map((sub) => `${sub}.${target}`), fc.domain().map((other) => `${target}.${other}`));

  it('`*.domain/*` and `*.domain` allow exactly the subdomains of domain', () => {
    fc.assert(
      fc.property(domain.chain((target) => fc.tuple(fc.constant(target), refererWith(hostFor(target), target))), ([target, referer]) => {
        const expected = referer.host.toLowerCase().endsWith(`.${target}`);
        expect(refererAllowed([`*.${target}/*`], referer.url)).toBe(expected);
        expect(refererAllowed([`*.${target}`], referer.url)).toBe(expected);
      }),
    );
  });
  it('`https://domain/*` allows exactly that scheme and host', () => {
    fc.assert(
      fc.property(domain.chain((target) => fc.tuple(fc.constant(target), refererWith(hostFor(target), target))), ([target, referer]) => {
        // No port in the pattern: any port of that host.
        const expected = referer.scheme === 'https' && referer.host.toLowerCase() === target;
        expect(refererAllowed([`https://${target}/*`], referer.url)).toBe(expected);
      }),
    );
  });
  it('`*domain*` allows exactly the hosts containing domain', () => {
    fc.assert(
      fc.property(domain.chain((target) => fc.tuple(fc.constant(target), refererWith(hostFor(target), target))), ([target, referer]) => {
        expect(refererAllowed([`*${target}*`], referer.url)).toBe(referer.host.toLowerCase().includes(target));
      }),
    );
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
