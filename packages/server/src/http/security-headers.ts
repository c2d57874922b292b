/**
 * Security headers on every response (@fastify/helmet): the storefront's pages and files, and the API's JSON.
 *
 * - `Content-Security-Policy`: scripts, styles and everything else from the page's own origin only, no inline
 *   script or event handler, so markup that ever got injected into the page could not run; no inline style but
 *   the one attribute server-rendered pages carry (by its hash). Images also from `data:` (instantsearch.css
 *   draws its icons as data URLs). The storefront's search provider is read from the configuration the server
 *   serves (`storefrontConfig`): with `"provider": "algolia"` the browser talks to Algolia's hosts (search,
 *   insights, analytics), which `connect-src` then names; `insights.useCdn` loads search-insights from its CDN,
 *   which `script-src` then names. On the API's JSON the policy is moot but harmless.
 * - `X-Content-Type-Options: nosniff`: a JSON answer (which can echo a caller's text) is never sniffed as HTML.
 * - Framing refused (`frame-ancestors 'none'`, `X-Frame-Options: DENY`): no clickjacking of the cart or checkout.
 * - `Referrer-Policy: strict-origin-when-cross-origin`: other sites see the shop's origin, never its paths and
 *   queries; Algolia still gets the origin that keys restricted to referers check.
 *
 * Left out: `Strict-Transport-Security` (the server speaks plain HTTP; whoever terminates TLS knows whether the
 * whole host is HTTPS and sets it) and `Cross-Origin-Resource-Policy` (the API and the product images are meant
 * to be used from other origins).
 */
import { createHash } from 'node:crypto';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** Algolia's hosts a storefront with `"provider": "algolia"` calls from the browser. */
export const ALGOLIA_CONNECT_SOURCES = [
  // Search: `<appId>-dsn.algolia.net`, `<appId>.algolia.net`, and the fallbacks `<appId>-N.algolianet.com`.
  'https://*.algolia.net',
  'https://*.algolianet.com',
  // Insights events: the default host and the regional ones.
  'https://insights.algolia.io',
  'https://insights.de.algolia.io',
  'https://insights.us.algolia.io',
  // The analytics dashboard's Analytics API.
  'https://analytics.algolia.com',
];
/** Where `insights.useCdn` loads search-insights from (`src/lib/insights.ts` of the storefront). */
export const INSIGHTS_CDN = 'https://cdn.jsdelivr.net';

/**
 * The one inline style a server-rendered storefront page carries: react-instantsearch's `<Stats>` hides its
 * live region with a `style` attribute, which the browser would block in the parsed HTML (React sets the same
 * style through the DOM on a client render, which the policy allows). Allowed by its hash, attributes only.
 */
export const STATS_ANNOUNCEMENT_STYLE =
  'position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0, 0, 0, 0);white-space:nowrap;border:0';
const styleHash = (style: string) => `'sha256-${createHash('sha256').update(style).digest('base64')}'`;

/** The CSP directives for a storefront configuration (or none: the API alone). */
export function contentSecurityDirectives(storefrontConfig: Record<string, unknown> | undefined): Record<string, string[]> {
  const hosted = storefrontConfig?.provider === 'algolia';
  const insights = storefrontConfig?.insights as { useCdn?: unknown } | undefined;
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...(insights?.useCdn === true ? [INSIGHTS_CDN] : [])],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    'style-src-attr': ["'unsafe-hashes'", styleHash(STATS_ANNOUNCEMENT_STYLE)],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'", ...(hosted ? ALGOLIA_CONNECT_SOURCES : [])],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

export async function registerSecurityHeaders(app: FastifyInstance, storefrontConfig: Record<string, unknown> | undefined): Promise<void> {
  await app.register(fastifyHelmet, {
    // No helmet defaults merged in: among them `upgrade-insecure-requests`, which breaks a shop served over
    // plain HTTP (a laptop, a LAN) by sending its requests to an HTTPS port that does not answer.
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityDirectives(storefrontConfig) },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: false,
    crossOriginResourcePolicy: false,
  });
}
