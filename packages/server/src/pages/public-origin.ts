/**
 * The origin the shop's absolute URLs are written with: canonical and Open Graph URLs, `sitemap.xml` and its
 * pages, `robots.txt`, and the referer a page's key is checked against. The Host header is the client's to write:
 * reflected as it was, anyone could have a crawler read pages and a sitemap pointing at a site of theirs
 * (issue 49). So the origin is, in this order:
 *
 * 1. a configured public URL (`ServerConfig.publicUrl`, `VITRINE_PUBLIC_URL`): the one whose host the request
 *    names, else the first;
 * 2. without one, the host a trusted proxy forwarded (`trustProxy`, `VITRINE_TRUST_PROXY`: the request came from a
 *    trusted address that forwarded the client's), with the scheme it forwarded;
 * 3. the request's own host when it is a loopback name (a developer's browser, `localhost:3000`);
 * 4. else `http://localhost`: never a made-up host, if not the right one (configure the public URL).
 */
import type { FastifyRequest } from 'fastify';

/** A host and optional port, nothing else (no user, path, spaces or markup). */
const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;
const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i;
const FALLBACK = 'http://localhost';

/** The configured public URLs as origins (`https://shop.example.com`); throws on anything else. */
export function publicOrigins(publicUrl: string | readonly string[] | undefined): string[] {
  const urls = publicUrl === undefined ? [] : typeof publicUrl === 'string' ? [publicUrl] : publicUrl;
  return urls.map((raw) => {
    const url = URL.canParse(raw) ? new URL(raw) : undefined;
    // An origin and nothing else: `${origin}/` is the whole URL (no user, path, query or fragment).
    if (url === undefined || !/^https?:$/.test(url.protocol) || `${url.origin}/` !== url.href) {
      throw new Error(`publicUrl must be an http or https origin such as https://shop.example.com (no path), got "${raw}"`);
    }
    return url.origin;
  });
}

/** The origin of `request`'s absolute URLs, given the configured public origins (see above). */
export function originOf(request: FastifyRequest, origins: readonly string[]): string {
  const host = request.host.toLowerCase();
  if (origins.length > 0) return origins.find((origin) => new URL(origin).host === host) ?? origins[0];
  if (!HOST.test(host)) return FALLBACK;
  // `ips` (with trustProxy only): the socket's address, then those its forwarded header named while trusted.
  const proxied = (request.ips?.length ?? 0) > 1;
  if (proxied) return `${request.protocol === 'https' ? 'https' : 'http'}://${host}`;
  return LOOPBACK.test(host) ? `http://${host}` : FALLBACK;
}
