/**
 * Server-rendered storefront pages, `sitemap.xml` and `robots.txt` (when `ServerConfig.storefrontRenderer`
 * names the storefront's SSR bundle).
 *
 * A shopper's page request (the requests `wantsAppShell` sends to the app shell) is rendered by the
 * storefront's `render()` with the status it chooses (404 for an unknown product, category or path). The
 * merchant console stays a client-rendered app: `/admin` gets the shell. If rendering fails, the shopper gets the
 * shell too (the app then renders in the browser, as without SSR) and the error goes to the log: never a 5xx
 * for a page. The HTML is compressed here (brotli or gzip, as accepted): it is made per request, so the build's
 * precompressed copies do not exist for it. The sitemap's texts are compressed too, once per catalogue change and
 * encoding (a 10,000-product sitemap is 931 KB of XML). Absolute URLs take their origin from `public-origin.ts`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { PageBackend, PageRenderer } from '@vitrine/protocol';
import { robotsTxt, sitemapIndex, sitemapPage, sitemapPageCount } from './sitemap.ts';
import { SitemapCache } from './sitemap-cache.ts';
import { originOf, publicOrigins } from './public-origin.ts';

export interface PagesOptions {
  renderer: PageRenderer;
  /** What the sitemap reads through (every record of the index). */
  backend: PageBackend;
  /**
   * What a shopper's page is rendered through: the rights of the storefront's key for that shopper, the page at
   * `origin` as its referer (may throw).
   */
  backendFor(request: FastifyRequest, origin: string): PageBackend;
  staticRoot: string;
  storefrontConfig: Record<string, unknown>;
  /** Registers what to call whenever a write was applied: the sitemap is generated again at its next request. */
  onCatalogueChange?: (listener: () => void) => void;
  /** The shop's public URLs (`ServerConfig.publicUrl`): the origins absolute URLs may take. */
  publicUrl?: string | readonly string[];
}

export interface PageSender {
  /** Answers a page request (one `wantsAppShell` accepted). */
  send(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
}

function isConsole(path: string): boolean {
  return path === '/admin' || path.startsWith('/admin/');
}

/** The compression a client accepts: brotli where offered (every browser), else gzip, else none. */
function encodingFor(request: FastifyRequest): 'br' | 'gzip' | undefined {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  return /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A sitemap text compressed on libuv's threads (a large one takes milliseconds), at the levels pages use. */
function compressXml(text: string, encoding: 'br' | 'gzip'): Promise<Buffer> {
  return encoding === 'br'
    ? brotliAsync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } })
    : gzipAsync(text, { level: 4 });
}

function sendHtml(request: FastifyRequest, reply: FastifyReply, status: number, html: string): FastifyReply {
  reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
  const encoding = encodingFor(request);
  if (encoding === 'br') {
    const body = brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } });
    return reply.header('content-encoding', 'br').send(body);
  }
  if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(gzipSync(html, { level: 4 }));
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
  const origins = publicOrigins(options.publicUrl);
  const requestOrigin = (request: FastifyRequest) => originOf(request, origins);

  /** A sitemap text (`key`: its origin and page), compressed as the client accepts; undefined: no such page. */
  const sendXml = async (request: FastifyRequest, reply: FastifyReply, key: string, build: (paths: readonly string[]) => string | undefined) => {
    const encoding = encodingFor(request);
    const body = encoding === undefined
      ? await sitemap.text(key, build)
      : await sitemap.text(`${key} ${encoding}`, async (paths) => {
          const text = build(paths);
          return text === undefined ? undefined : compressXml(text, encoding);
        });
    if (body === undefined) return reply.code(404).type('text/plain; charset=utf-8').send('No such sitemap page\n');
    if (encoding !== undefined) reply.header('content-encoding', encoding);
    return reply.type('application/xml; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding').send(body);
  };

  app.get('/robots.txt', async (request, reply) => reply.type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send(robotsTxt(requestOrigin(request))));
  app.get('/sitemap.xml', async (request, reply) => {
    const origin = requestOrigin(request);
    return sendXml(request, reply, `${origin} index`, (paths) => sitemapIndex(origin, sitemapPageCount(paths.length)));
  });
  app.get<{ Params: { page: string } }>('/sitemaps/:page', async (request, reply) => {
    const match = /^(\d{1,6})\.xml$/.exec(request.params.page);
    const origin = requestOrigin(request);
    return sendXml(request, reply, `${origin} ${match?.[1]}`, (paths) => (match ? sitemapPage(origin, paths, Number(match[1])) : undefined));
  });

  return {
    async send(request, reply) {
      const url = request.url;
      if (isConsole(url.split('?')[0])) return sendHtml(request, reply, 200, shell);
      try {
        const origin = requestOrigin(request);
        const page = await renderer.render({ url, origin, shell, config: storefrontConfig }, backendFor(request, origin));
        const status = page.status === 404 ? 404 : 200;
        return sendHtml(request, reply, status, page.html);
      } catch (error) {
        logFailure(request, 'page rendering failed, sent the app shell', error);
        return sendHtml(request, reply, 200, shell);
      }
    },
  };
}
