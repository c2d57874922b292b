/**
 * The built storefront at `/`: its files, and `index.html` for client-side routes (`/product/…`, `/search?…`).
 *
 * Only GET/HEAD paths of a client that accepts HTML fall back to `index.html`, and a path with a file extension
 * only for a browser navigation (`Accept: text/html`). A missing file — anything under `/assets/`, or a path with
 * a file extension asked for as a script, style or image — is a 404: a browser holding a page of an older build
 * asks for that build's bundles, and answering them with HTML (as JavaScript) gives a blank page instead of an
 * error the app can recover from by reloading.
 *
 * Caching: the bundler names files under `/assets/` by content hash, so they never change and are cached for a
 * year as immutable; `index.html` (which names the current bundles) and every other file are revalidated.
 *
 * Compression: the storefront's build writes `.br` and `.gz` beside each text file worth compressing, and the
 * one the client accepts is sent (brotli first), else the file itself; every answer says it varies with
 * `Accept-Encoding`, so a shared cache never hands brotli to a client that did not ask for it.
 */
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';
/** A last path segment ending in `.ext`: a file, not a client-side route. */
const FILE_EXTENSION = /\.[A-Za-z0-9]{1,16}$/;

/** `serveIndex: false` leaves `/` to the page renderer (the file stays at `/index.html`). */
export async function registerStorefront(app: FastifyInstance, root: string, options: { serveIndex: boolean } = { serveIndex: true }): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: options.serveIndex ? ['index.html'] : false,
    preCompressed: true,
    // Our own cache headers (setHeaders); @fastify/static's would say `max-age=0` for everything.
    cacheControl: false,
    setHeaders: (response, path) => {
      const immutable = relative(root, path).split(sep)[0] === 'assets';
      response.setHeader('cache-control', immutable ? IMMUTABLE : REVALIDATE);
      response.setHeader('vary', 'accept-encoding');
    },
  });
}

/** Whether an unmatched request gets the app shell rather than a 404. */
export function wantsAppShell(request: FastifyRequest, root: string): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0];
  if (path.startsWith('/1/') || path.startsWith('/2/') || path === '/assets' || path.startsWith('/assets/')) return false;
  const accept = request.headers.accept;
  const navigation = accept?.includes('text/html') === true;
  // A path ending in `.ext` is a file, unless a browser navigates to it: a product page's URL ends with its
  // objectID, which may hold a dot (`/p/lamp-sku.1234`). Scripts, styles and images never ask for HTML.
  const last = path.slice(path.lastIndexOf('/') + 1);
  if (FILE_EXTENSION.test(last) && !navigation) return false;
  // `*/*` (or no header) accepts anything, HTML included.
  if (!navigation && accept !== undefined && !accept.includes('*/*')) return false;
  return existsSync(join(root, 'index.html'));
}
