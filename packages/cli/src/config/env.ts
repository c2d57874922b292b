import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
// A type only: this module must not load the server (see DEFAULT_INDEXING_SHARE).
import type { LogLevel } from '@vitrine/server';
import { UsageError } from '../errors.ts';

/**
 * Configuration by environment variable, with its defaults. Every value is checked here, so a typo such as
 * `PORT=30o0` stops the command with a clear message instead of surfacing later as a confusing failure.
 */
export interface Environment {
  /** `PORT`, default 3000; 0 picks a free port (the banner prints the one chosen). */
  port: number;
  /** `HOST`, default `localhost`: loopback only, over IPv4 and IPv6 alike. */
  host: string;
  /** `VITRINE_DATA_DIR`, default `./data`, resolved against the working folder. */
  dataDir: string;
  /** `VITRINE_APP_ID`, default `vitrine`. */
  appId: string;
  /** `VITRINE_ADMIN_API_KEY` / `VITRINE_SEARCH_API_KEY`: when unset, generated once and kept in the data folder. */
  adminApiKey: string | undefined;
  searchApiKey: string | undefined;
  /** `VITRINE_DEMO_SIZE`, default 10,000: products created on first start. */
  demoSize: number;
  /** `VITRINE_URL`, default `http://localhost:3000`: the server `import` and `export` talk to. */
  url: string;
  /** `VITRINE_STOREFRONT_DIR`: a built storefront to serve instead of the repository's own build. */
  storefrontDir: string | undefined;
  /** `VITRINE_SEARCH_THREADS`: worker threads answering searches (default: 1 with 2 cores or more, else 0). */
  searchThreads: number;
  /**
   * `VITRINE_INDEXING_SHARE`, default 0.2: while searches are being answered, the share of their time the server's
   * threads may spend applying writes (`ServerLimits.indexingShareWhileSearching`); 1: imports at full speed.
   */
  indexingShare: number;
  /**
   * `VITRINE_TRUST_PROXY`, default off: whose `X-Forwarded-For` to believe, so per-IP limits see client addresses
   * behind a reverse proxy (Fastify's `trustProxy`): the proxies' addresses, or `true` for any.
   */
  trustProxy: boolean | string[];
  /**
   * `VITRINE_PUBLIC_URL`, comma-separated: the shop's public origins (`https://shop.example.com`), which the pages'
   * canonical URLs, the sitemap and robots.txt take (the server's `publicUrl`); empty: see the server's rule.
   */
  publicUrls: string[];
  /**
   * `VITRINE_LOG_LEVEL`, default `info`: the least severe level of the server's JSON log lines on stdout (`info`
   * writes one per request; `warn` keeps failures only; `silent` none).
   */
  logLevel: LogLevel;
}

export const DEFAULT_PORT = 3000;
export const DEFAULT_DEMO_SIZE = 10_000;
/**
 * The server's own default (`indexingShareWhileSearching`), repeated here: importing it would load the whole
 * server into the processes that only read the environment (the launcher, `import`, `sync`).
 */
export const DEFAULT_INDEXING_SHARE = 0.2;
/**
 * One search thread beside the main thread when there is a second core: measured on 2 cores with
 * `npm run bench:http`, one thread serves more than none (the main thread keeps HTTP, writes and the search
 * log) and more than two (which compete with the main thread and apply every write once more).
 */
export const defaultSearchThreads = (): number => (availableParallelism() >= 2 ? 1 : 0);

/** `VITRINE_SEARCH_THREADS`, or the default; a malformed value is a `UsageError`. */
export function searchThreadsFrom(env: Record<string, string | undefined>): number {
  return integer(env, 'VITRINE_SEARCH_THREADS', defaultSearchThreads(), 64);
}

function integer(env: Record<string, string | undefined>, name: string, fallback: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max) {
    throw new UsageError(`${name} must be an integer from 0 to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

/** A share of time: a decimal number above 0 and at most 1. */
function share(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!/^\d*\.?\d+$/.test(raw) || !(value > 0 && value <= 1)) throw new UsageError(`${name} must be a number above 0 and at most 1, got "${raw}"`);
  return value;
}

function text(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** The server's log levels (its `LogLevel`), most severe first. */
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevel(env: Record<string, string | undefined>): LogLevel {
  const raw = env.VITRINE_LOG_LEVEL?.trim().toLowerCase();
  if (!raw) return 'info';
  const level = LOG_LEVELS.find((name) => name === raw);
  if (level === undefined) throw new UsageError(`VITRINE_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.VITRINE_LOG_LEVEL?.trim()}"`);
  return level;
}

/** Names of address ranges Fastify's `trustProxy` knows. */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
}

/**
 * `true` believes every address in `X-Forwarded-For`, whose first entries a client can write itself unless the
 * proxy replaces the header; a list of the proxies' addresses takes the address the last of them saw. (Fastify
 * dropped hop counts: a client reaching the server directly could fake the hops.)
 */
function trustProxy(env: Record<string, string | undefined>): boolean | string[] {
  const raw = env.VITRINE_TRUST_PROXY?.trim().toLowerCase();
  if (!raw || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  const entries = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  const wrong = entries.find((entry) => !isAddressOrRange(entry));
  if (wrong !== undefined) {
    throw new UsageError(`VITRINE_TRUST_PROXY must be true, false, or addresses / CIDR ranges separated by commas, got "${wrong}"`);
  }
  return entries;
}

/** `VITRINE_PUBLIC_URL`: origins only (scheme, host, port), as the server takes them. */
function publicUrls(env: Record<string, string | undefined>): string[] {
  const entries = (env.VITRINE_PUBLIC_URL ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  return entries.map((entry) => {
    const url = URL.canParse(entry) ? new URL(entry) : undefined;
    if (url === undefined || !/^https?:$/.test(url.protocol) || `${url.origin}/` !== url.href) {
      throw new UsageError(`VITRINE_PUBLIC_URL must be http or https origins separated by commas (https://shop.example.com, no path), got "${entry}"`);
    }
    return url.origin;
  });
}

export function readEnvironment(env: Record<string, string | undefined>, cwd: string): Environment {
  const dataDir = text(env, 'VITRINE_DATA_DIR') ?? 'data';
  const port = integer(env, 'PORT', DEFAULT_PORT, 65_535);
  return {
    port,
    host: text(env, 'HOST') ?? 'localhost',
    dataDir: isAbsolute(dataDir) ? dataDir : resolve(cwd, dataDir),
    appId: text(env, 'VITRINE_APP_ID') ?? 'vitrine',
    adminApiKey: text(env, 'VITRINE_ADMIN_API_KEY'),
    searchApiKey: text(env, 'VITRINE_SEARCH_API_KEY'),
    demoSize: integer(env, 'VITRINE_DEMO_SIZE', DEFAULT_DEMO_SIZE, 10_000_000),
    url: text(env, 'VITRINE_URL') ?? `http://localhost:${DEFAULT_PORT}`,
    storefrontDir: ((dir) => (dir ? resolve(cwd, dir) : undefined))(text(env, 'VITRINE_STOREFRONT_DIR')),
    searchThreads: searchThreadsFrom(env),
    indexingShare: share(env, 'VITRINE_INDEXING_SHARE', DEFAULT_INDEXING_SHARE),
    trustProxy: trustProxy(env),
    publicUrls: publicUrls(env),
    logLevel: logLevel(env),
  };
}
