import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import { blockListOf, isLoopback, listed, MAX_SOURCES, parseSource, parseSources, sourceKey } from './source-list.ts';

function refusal(run: () => unknown): { status: number; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('parseSource', () => {
  it('takes IPv4 and IPv6 addresses and CIDR ranges, as written, with an optional description', () => {
    expect(parseSource({ source: '10.0.0.1/32', description: 'Server subnet' })).toEqual({ source: '10.0.0.1/32', description: 'Server subnet' });
    expect(parseSource({ source: '203.0.113.7' })).toEqual({ source: '203.0.113.7' });
    expect(parseSource({ source: ' 2001:DB8::/32 ' })).toEqual({ source: '2001:DB8::/32' });
    expect(parseSource({ source: '0.0.0.0/0' })).toEqual({ source: '0.0.0.0/0' });
    expect(parseSource({ source: '::ffff:10.0.0.0/104' }).source).toBe('::ffff:10.0.0.0/104');
  });

  it.each([
    ['10.0.0.0/33', 'past 32'],
    ['2001:db8::/129', 'past 128'],
    ['300.1.2.3', 'not an IPv4 or IPv6 address'],
    ['10.0.0', 'not an IPv4 or IPv6 address'],
    ['010.0.0.1', 'not an IPv4 or IPv6 address'],
    ['fe80::1%eth0', 'not an IPv4 or IPv6 address'],
    ['ALGOLIA_SUPPORT', 'not an IPv4 or IPv6 address'],
    ['10.0.0.0/-1', 'expected an IP address or a CIDR range'],
    ['10.0.0.0/8/8', 'expected an IP address or a CIDR range'],
    ['10.0.0.0/', 'expected an IP address or a CIDR range'],
    ['', 'expected an IP address or a CIDR range'],
  ])('refuses %j with a 400 naming it (%s)', (source, why) => {
    const { status, message } = refusal(() => parseSource({ source }, 'at the position 3'));
    expect(status).toBe(400);
    expect(message).toContain(`Invalid source ${JSON.stringify(source)} (at the position 3)`);
    expect(message).toContain(why);
  });

  it('refuses entries that are not {source, description?} objects', () => {
    expect(refusal(() => parseSource('10.0.0.0/8')).message).toContain('expected an object');
    expect(refusal(() => parseSource({ source: 10 })).message).toContain('"source" must be a string');
    expect(refusal(() => parseSource({})).message).toContain('"source" must be a string');
    expect(refusal(() => parseSource({ source: '10.0.0.0/8', description: 5 })).message).toContain('"description" must be a string');
  });
});

describe('parseSources', () => {
  it('refuses the whole list for one bad entry, a range listed twice, a list past the limit, a body that is no list', () => {
    expect(refusal(() => parseSources([{ source: '10.0.0.0/8' }, { source: 'nope' }])).message).toContain('(at the position 1)');
    expect(refusal(() => parseSources([{ source: '10.0.0.1' }, { source: '10.0.0.1/32' }])).message).toContain('the same range as the source at the position 0');
    const many = Array.from({ length: MAX_SOURCES + 1 }, (_, i) => ({ source: `10.${i >> 8}.${i & 255}.0/24` }));
    expect(refusal(() => parseSources(many)).message).toBe(`Parameter too long: "sources" has ${MAX_SOURCES + 1} entries, the limit is ${MAX_SOURCES}`);
    expect(parseSources(many.slice(0, MAX_SOURCES))).toHaveLength(MAX_SOURCES);
    expect(refusal(() => parseSources({ source: '10.0.0.0/8' })).status).toBe(400);
    expect(parseSources([])).toEqual([]);
  });
});

describe('matching', () => {
  it('matches IPv4 ranges, IPv6 ranges and IPv4-mapped addresses', () => {
    const list = blockListOf(parseSources([{ source: '10.0.0.0/8' }, { source: '203.0.113.7' }, { source: '2001:db8::/32' }]))!;
    expect(listed(list, '10.200.3.4')).toBe(true);
    expect(listed(list, '11.0.0.1')).toBe(false);
    expect(listed(list, '203.0.113.7')).toBe(true);
    expect(listed(list, '203.0.113.8')).toBe(false);
    expect(listed(list, '::ffff:10.1.2.3')).toBe(true);
    expect(listed(list, '::ffff:11.1.2.3')).toBe(false);
    expect(listed(list, '2001:db8:1::5')).toBe(true);
    expect(listed(list, '2001:db9::5')).toBe(false);
    expect(listed(list, 'not an address')).toBe(false);
  });

  it('makes no matcher for an empty list (everyone is let in)', () => {
    expect(blockListOf([])).toBeUndefined();
  });

  it('tells loopback addresses, mapped ones included', () => {
    for (const ip of ['127.0.0.1', '127.0.0.2', '127.255.0.9', '::1', '::ffff:127.0.0.1']) expect(isLoopback(ip), ip).toBe(true);
    for (const ip of ['128.0.0.1', '10.0.0.1', '::2', '::ffff:10.0.0.1', '']) expect(isLoopback(ip), ip).toBe(false);
  });

  it('names one range one way, however it is written', () => {
    expect(sourceKey('10.0.0.1')).toBe(sourceKey('10.0.0.1/32'));
    expect(sourceKey('2001:DB8:0::/32')).toBe(sourceKey('2001:db8::/32'));
    expect(sourceKey('10.0.0.0/8')).not.toBe(sourceKey('10.0.0.0/16'));
    expect(sourceKey('bogus')).toBeUndefined();
  });
});
