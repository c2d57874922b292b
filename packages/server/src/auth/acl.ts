/**
 * Access rules shared by stored keys and secured keys: ACL names, index patterns (`prod_*`, `*_dev`, `*`),
 * HTTP referer patterns (`*.example.com`, `https://example.com/*`) and source-IP ranges (CIDR).
 */
import { isIP } from 'node:net';

export const ACLS = [
  'search', 'browse', 'addObject', 'deleteObject', 'deleteIndex', 'settings', 'editSettings', 'listIndexes',
  'logs', 'seeUnretrievableAttributes', 'analytics', 'recommendation', 'usage', 'inference', 'personalization',
] as const;
export type Acl = (typeof ACLS)[number];

const ACL_SET = new Set<string>(ACLS);
export function isAcl(value: unknown): value is Acl {
  return typeof value === 'string' && ACL_SET.has(value);
}

/** `*` anywhere in the pattern matches any run of characters; everything else literally. */
export function matchesPattern(pattern: string, value: string): boolean {
  if (!pattern.includes('*')) return pattern === value;
  const parts = pattern.split('*');
  if (!value.startsWith(parts[0])) return false;
  let position = parts[0].length;
  for (let i = 1; i < parts.length - 1; i++) {
    const found = value.indexOf(parts[i], position);
    if (found < 0) return false;
    position = found + parts[i].length;
  }
  const last = parts[parts.length - 1];
  return value.length - last.length >= position && value.endsWith(last);
}

/** An index is allowed when no pattern restricts it, or one pattern matches. */
export function indexAllowed(patterns: readonly string[] | undefined, indexName: string): boolean {
  if (!patterns || patterns.length === 0) return true;
  return patterns.some((pattern) => matchesPattern(pattern, indexName));
}

/** The parts of a referer a pattern is matched against; `scheme` is undefined when the referer names none. */
interface RefererParts {
  scheme: string | undefined;
  /** Hostname and port (when not the scheme's default). */
  host: string;
  hostname: string;
  /** Path and query string. */
  path: string;
}

const REFERER_SCHEME = /^([a-z][a-z0-9+.-]*):\/\//i;
/** A pattern's scheme may be a wildcard (`*://shop.example.com/*`). */
const PATTERN_SCHEME = /^([a-z*][a-z0-9+.*-]*):\/\//i;

/** A referer parsed as a URL (a referer without a scheme as one without), or undefined when it is none. */
function parseReferer(referer: string): RefererParts | undefined {
  const scheme = REFERER_SCHEME.exec(referer)?.[1];
  let url: URL;
  try {
    url = new URL(scheme ? referer : `http://${referer}`);
  } catch {
    return undefined;
  }
  if (url.hostname === '') return undefined;
  return { scheme: scheme?.toLowerCase(), host: url.host, hostname: url.hostname, path: url.pathname + url.search };
}

/**
 * A pattern reads like a URL: an optional scheme, a host, an optional path (none = any path). Each part is
 * matched against the same part of the parsed referer, so a `*` in the host stays in the host: it never spans
 * a `/` into the path, nor the user-info of `https://shop.example.com@evil.com/`. A host pattern without a port
 * allows any port.
 */
function refererMatches(pattern: string, referer: RefererParts): boolean {
  const scheme = PATTERN_SCHEME.exec(pattern);
  if (scheme && (referer.scheme === undefined || !matchesPattern(scheme[1].toLowerCase(), referer.scheme))) return false;
  const rest = scheme ? pattern.slice(scheme[0].length) : pattern;
  const slash = rest.indexOf('/');
  const hostPattern = (slash < 0 ? rest : rest.slice(0, slash)).toLowerCase();
  const pathPattern = slash < 0 ? '*' : rest.slice(slash);
  const host = hostPattern.includes(':') ? referer.host : referer.hostname;
  return matchesPattern(hostPattern, host) && matchesPattern(pathPattern, referer.path);
}

/**
 * Referer patterns as Algolia documents them: `https://shop.example.com/*` (that prefix), `*.example.com`
 * (its subdomains), `*example.com*` (hosts containing it). The `Origin` header, which has no path, counts as
 * the path `/`.
 */
export function refererAllowed(patterns: readonly string[] | undefined, referer: string | undefined): boolean {
  if (!patterns || patterns.length === 0) return true;
  const parts = referer ? parseReferer(referer) : undefined;
  return parts !== undefined && patterns.some((pattern) => refererMatches(pattern, parts));
}

function ipv4ToNumber(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function ipv6ToBigInt(ip: string): bigint {
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const headParts = head ? head.split(':') : [];
  let tailParts = tail !== undefined && tail !== '' ? tail.split(':') : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4) is two 16-bit groups.
  const expand = (parts: string[]) =>
    parts.flatMap((part) => {
      if (!part.includes('.')) return [part];
      const n = ipv4ToNumber(part);
      return [(n >>> 16).toString(16), (n & 0xffff).toString(16)];
    });
  const h = expand(headParts);
  tailParts = expand(tailParts);
  const missing = 8 - h.length - tailParts.length;
  const groups = tail !== undefined ? [...h, ...Array(Math.max(0, missing)).fill('0'), ...tailParts] : h;
  return groups.reduce((acc, group) => (acc << 16n) + BigInt(parseInt(group || '0', 16)), 0n);
}

/** Whether `ip` is inside `cidr` (`10.0.0.0/8`, `192.168.1.7`, `2001:db8::/32`). IPv4-mapped IPv6 addresses count as IPv4. */
export function ipInCidr(ip: string, cidr: string): boolean {
  const [range, bitsText] = cidr.trim().split('/');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1] : ip;
  const family = isIP(address);
  if (family === 0 || isIP(range) !== family) return false;
  const width = family === 4 ? 32 : 128;
  const bits = bitsText === undefined ? width : Number(bitsText);
  if (!Number.isInteger(bits) || bits < 0 || bits > width) return false;
  if (family === 4) {
    if (bits === 0) return true;
    const mask = bits === 32 ? 0xffffffff : (~0 << (32 - bits)) >>> 0;
    return ((ipv4ToNumber(address) & mask) >>> 0) === ((ipv4ToNumber(range) & mask) >>> 0);
  }
  const shift = BigInt(128 - bits);
  return ipv6ToBigInt(address) >> shift === ipv6ToBigInt(range) >> shift;
}

/** `restrictSources` is a `;`-separated list of IPs or CIDR ranges. */
export function sourceAllowed(sources: string | undefined, ip: string): boolean {
  if (!sources || sources.trim() === '') return true;
  return sources.split(';').some((cidr) => cidr.trim() !== '' && ipInCidr(ip, cidr));
}
