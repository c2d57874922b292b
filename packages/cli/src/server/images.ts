import type { RouteExtension } from '@vitrine/server';
import { renderProductImage } from '@vitrine/demo';

/** A year: image names encode everything drawn (product type and colour), so a name never changes content. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * `GET /images/products/:name`: the demo catalogue's illustrations, drawn on request (each is a few hundred
 * bytes of SVG, cheap to render) and cached by browsers for a year. Unknown names are a 404.
 */
export const productImageRoutes: RouteExtension = (app) => {
  app.get<{ Params: { name: string } }>('/images/products/:name', async (request, reply) => {
    const svg = renderProductImage(request.params.name);
    if (svg === undefined) {
      return reply.code(404).send({ message: 'Image not found', status: 404 });
    }
    return reply
      .header('content-type', 'image/svg+xml; charset=utf-8')
      .header('cache-control', CACHE_CONTROL)
      .header('x-content-type-options', 'nosniff')
      // An SVG opened on its own is a document: it may draw, never run scripts or load anything.
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(svg);
  });
};
