import { renderAsync } from '@resvg/resvg-js';
import type { RouteExtension } from '@vitrine/server';
import { renderProductImage } from '@vitrine/demo';

/** A year: image names encode everything drawn (product type and colour), so a name never changes content. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** PNGs drawn lately, by name (≈ 22 KB each): a page of results asks for the same few dozen again and again. */
const drawn = new Map<string, Promise<Buffer>>();
const drawnLimit = 512;
/** One drawing at a time (≈ 5-10 ms of CPU each): a burst of a dozen must not take the cores searches need. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * The PNG of an illustration, at the 400×400 its SVG declares, drawn in libuv's thread pool. Browsers draw an
 * SVG `<img>` on the page's main thread, each in a document of its own (≈ 5 ms a picture in a Chromium trace of
 * the search page), so a result set's dozen pictures held up the next keystroke; a PNG is decoded off it.
 */
function png(name: string, svg: string): Promise<Buffer> {
  let image = drawn.get(name);
  if (image) drawn.delete(name);
  else {
    image = queue.then(() => renderAsync(svg)).then((rendered) => rendered.asPng());
    queue = image.catch(() => undefined);
    image.catch(() => drawn.delete(name));
  }
  drawn.set(name, image);
  if (drawn.size > drawnLimit) drawn.delete(drawn.keys().next().value!);
  return image;
}

/**
 * `GET /images/products/:name`: the demo catalogue's illustrations, cached by browsers for a year. The demo's
 * records name `<type>-<colour>.png`; `<type>-<colour>.svg` is the drawing itself (what records of data folders
 * made before the PNGs name). Unknown names are a 404.
 */
export const productImageRoutes: RouteExtension = (app) => {
  app.get<{ Params: { name: string } }>('/images/products/:name', async (request, reply) => {
    const { name } = request.params;
    const raster = name.endsWith('.png');
    const svg = renderProductImage(raster ? `${name.slice(0, -'.png'.length)}.svg` : name);
    if (svg === undefined) {
      return reply.code(404).send({ message: 'Image not found', status: 404 });
    }
    reply.header('cache-control', CACHE_CONTROL).header('x-content-type-options', 'nosniff');
    if (raster) return reply.header('content-type', 'image/png').send(await png(name, svg));
    return reply
      .header('content-type', 'image/svg+xml; charset=utf-8')
      // An SVG opened on its own is a document: it may draw, never run scripts or load anything.
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(svg);
  });
};
