/**
 * Server-rendered storefront pages, `sitemap.xml` and `robots.txt` (when `ServerConfig.storefrontRenderer`
 * names the storefront's SSR bundle).
 *
 * A shopper's page request (the requests `wantsAppShell` sends to the app shell) is rendered by the
 * storefront's `render()` with the status it chooses (404 for an unknown product, category or path). The
 * merchant console stays a client-rendered app: `/admin` gets the shell. If rendering fails, the shopper gets the
 * shell too (the app then renders in the browser, as without SSR) and the error goes to the log: never a 5xx
 * for a page. The HTML is compressed here (brotli or gzip, as accepted): it is made per request, so the build's
 * precompressed copies do not exist for it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { PageBackend, PageRenderer } from '@vitrine/protocol';
import { robotsTxt, sitemapIndex, sitemapPage, sitemapPageCount } from './sitemap.ts';
import { SitemapCache } from './sitemap-cache.ts';

export interface PagesOptions {
  renderer: PageRenderer;
  /** What the sitemap reads through (every record of the index). */
  backend: PageBackend;
  /** What a shopper's page is rendered through: the rights of the storefront's key for that shopper (may throw). */
  backendFor(request: FastifyRequest): PageBackend;
  staticRoot: string;
  storefrontConfig: Record<string, unknown>;
  /** Registers what to call whenever a write was applied: the sitemap is generated again at its next request. */
  onCatalogueChange?: (listener: () => void) => void;
}

export interface PageSender {
  /** Answers a page request (one `wantsAppShell` accepted). */
  send(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}

const HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

/** The origin absolute URLs are written with: the request's own, or `localhost` for a Host header that is no host. */
export function requestOrigin(request: FastifyRequest): string {
  const host = HOST.test(request.host) ? request.host : 'localhost';
  return `${request.protocol === 'https' ? 'https' : 'http'}://${host}`;
}

function isConsole(path: string): boolean {
  return path === '/admin' || path.startsWith('/admin/');
}

function sendHtml(request: FastifyRequest, reply: FastifyReply, status: number, html: string): FastifyReply {
  reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
  const accepted = String(request.headers['accept-encoding'] ?? '');
  if (/\bbr\b/.test(accepted)) {
    const body = brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } });
    return reply.header('content-encoding', 'br').send(body);
  }
  if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(gzipSync(html, { level: 4 }));
  return reply.send(html);
}

export async function registerPages(app: FastifyInstance, options: PagesOptions): Promise<PageSender> {
  const { renderer, backend, backendFor, storefrontConfig } = options;
  const shell = await readFile(join(options.staticRoot, 'index.html'), 'utf8');

  const logFailure = (request: FastifyRequest, what: string, error: unknown) => {
    // The message and stack only: never the request's headers or the configuration (which holds a key).
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    if (request.log.level && request.log.level !== 'silent') request.log.error({ path: request.url.split('?')[0], error: detail }, what);
    else console.error(`${what} (${request.url.split('?')[0]}): ${detail}`);
  };

  const sitemap = new SitemapCache(() => renderer.sitemapPaths(storefrontConfig, backend));
  options.onCatalogueChange?.(() => sitemap.invalidate());

  app.get('/robots.txt', async (request, reply) => reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(robotsTxt(requestOrigin(request))));
  app.get('/sitemap.xml', async (request, reply) => {
    const origin = requestOrigin(request);
    const body = await sitemap.text(`${origin} index`, (paths) => sitemapIndex(origin, sitemapPageCount(paths.length)));
    return reply.type('application/xml; charset=utf-8').header('cache-control', 'no-cache').send(body);
  });
  app.get<{ Params: { page: string } }>('/sitemaps/:page', async (request, reply) => {
    const match = /^(\d{1,6})\.xml$/.exec(request.params.page);
    const origin = requestOrigin(request);
    const body = match ? await sitemap.text(`${origin} ${Number(match[1])}`, (paths) => sitemapPage(origin, paths, Number(match[1]))) : undefined;
    if (body === undefined) return reply.code(404).type('text/plain; charset=utf-8').send('No such sitemap page\n');
    return reply.type('application/xml; charset=utf-8').header('cache-control', 'no-cache').send(body);
  });

  return {
    async send(request, reply) {
      const url = request.url;
      if (isConsole(url.split('?')[0])) return sendHtml(request, reply, 200, shell);
      try {
        const page = await renderer.render({ url, origin: requestOrigin(request), shell, config: storefrontConfig }, backendFor(request));
        const status = page.status === 404 ? 404 : 200;
        return sendHtml(request, reply, status, page.html);
      } catch (error) {
        logFailure(request, 'page rendering failed, sent the app shell', error);
        return sendHtml(request, reply, 200, shell);
      }
    },
  };
}
