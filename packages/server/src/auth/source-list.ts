/**
 * The application's allowed sources (`/1/security/sources`, Algolia's Vault firewall): a list of IPv4 or IPv6
 * addresses and CIDR ranges, each with an optional description. Pure: parsing, checking and matching, no storage.
 * Matching goes through Node's `net.BlockList`, which also matches IPv4-mapped IPv6 addresses (`::ffff:10.0.0.1`,
 * what a server listening on `::` sees) against IPv4 ranges.
 */
import { BlockList, isIPv4, isIPv6, SocketAddress } from 'node:net';
import { createError } from '../errors.ts';

export interface AllowedSource {
  /** As the caller wrote it (`10.0.0.1/32`, `192.168.0.0/16`, `2001:db8::/32`, `203.0.113.7`). */
  source: string;
  description?: string;
}

/** Algolia's limit ("for performance reasons"); the same here keeps a list that works there working here. */
export const MAX_SOURCES = 1000;

const CIDR = /^([^/]+)(?:\/(\d{1,3}))?$/;

interface Range {
  address: string;
  family: 'ipv4' | 'ipv6';
  prefix: number;
}

/** The range a source names, or a reason it names none. */
function rangeOf(source: string): Range | string {
  const match = CIDR.exec(source);
  if (!match) return 'expected an IP address or a CIDR range (10.0.0.0/8, 2001:db8::/32)';
  const [, address, prefixText] = match;
  // A zone (`fe80::1%eth0`) names an interface of the machine that wrote it, not a range of addresses.
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) && !address.includes('%') ? 'ipv6' : undefined;
  if (family === undefined) return `"${address}" is not an IPv4 or IPv6 address`;
  const width = family === 'ipv4' ? 32 : 128;
  const prefix = prefixText === undefined ? width : Number(prefixText);
  if (prefix > width) return `the prefix length /${prefixText} is past ${width}, the size of an ${family === 'ipv4' ? 'IPv4' : 'IPv6'} address`;
  return { address: new SocketAddress({ address, family }).address, family, prefix };
}

/** One form per range as written (`10.0.0.1` and `10.0.0.1/32` are one source; `2001:DB8::/32` and `2001:db8::/32` too). */
export function sourceKey(source: string): string | undefined {
  const range = rangeOf(source.trim());
  return typeof range === 'string' ? undefined : `${range.address}/${range.prefix}`;
}

/**
 * A source from a request body, checked (400 naming it otherwise). `where` says which one in a list
 * (`at the position 2`); the description, when given, must be a string.
 */
export function parseSource(value: unknown, where = ''): AllowedSource {
  const at = where === '' ? '' : ` (${where})`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw createError('INVALID_SOURCE', `entry${at}`, 'expected an object {"source": "10.0.0.0/8", "description": "…"}');
  const { source, description } = value as Record<string, unknown>;
  if (typeof source !== 'string') throw createError('INVALID_SOURCE', `entry${at}`, '"source" must be a string, an IP address or a CIDR range');
  const range = rangeOf(source.trim());
  if (typeof range === 'string') throw createError('INVALID_SOURCE', `${JSON.stringify(source)}${at}`, range);
  if (description !== undefined && typeof description !== 'string') throw createError('INVALID_SOURCE', `${JSON.stringify(source)}${at}`, '"description" must be a string');
  return description === undefined ? { source: source.trim() } : { source: source.trim(), description };
}

/** A whole list from a request body: every entry checked, none twice, at most `MAX_SOURCES`; nothing kept otherwise. */
export function parseSources(value: unknown): AllowedSource[] {
  if (!Array.isArray(value)) throw createError('INVALID_BODY', 'expected an array of sources [{"source": "10.0.0.0/8", "description": "…"}]');
  if (value.length > MAX_SOURCES) throw createError('LIST_TOO_LONG', 'sources', value.length, MAX_SOURCES);
  const seen = new Map<string, number>();
  return value.map((item, position) => {
    const parsed = parseSource(item, `at the position ${position}`);
    const key = sourceKey(parsed.source)!;
    const first = seen.get(key);
    if (first !== undefined) throw createError('INVALID_SOURCE', `${JSON.stringify(parsed.source)} (at the position ${position})`, `the same range as the source at the position ${first}`);
    seen.set(key, position);
    return parsed;
  });
}

/** A matcher for a checked list; `undefined` for an empty one, which lets everyone in. */
export function blockListOf(sources: readonly AllowedSource[]): BlockList | undefined {
  if (sources.length === 0) return undefined;
  const list = new BlockList();
  for (const { source } of sources) {
    const range = rangeOf(source) as Range;
    list.addSubnet(range.address, range.prefix, range.family);
  }
  return list;
}

/** Whether `ip` (as Fastify gives `request.ip`) is in `list`; an address that is none (a Unix socket's) is in no list. */
export function listed(list: BlockList, ip: string): boolean {
  if (isIPv4(ip)) return list.check(ip, 'ipv4');
  return isIPv6(ip) && list.check(ip, 'ipv6');
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** 127.0.0.0/8, ::1 and their IPv4-mapped forms: a client on the server's own machine. */
export function isLoopback(ip: string): boolean {
  return listed(LOOPBACK, ip);
}
