/**
 * A slow connection in front of the shop: a proxy on loopback that hands the browser each HTML page in small
 * slices with a pause between them, so the browser paints the page while it is still arriving (as on a phone
 * network), and passes everything else through unchanged. A layout that only holds once the whole page is
 * there shows here as a layout shift.
 */
import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as pause } from 'node:timers/promises';

export interface SlowConnection {
  /** The proxy's origin: open pages here instead of the shop's. */
  url: string;
  close(): Promise<void>;
}

export interface SlowConnectionOptions {
  /** Bytes of the page sent at a time. */
  sliceBytes?: number;
  /** Pause between slices, long enough for the browser to paint what it has. */
  pauseMs?: number;
}

export async function startSlowConnection(shopUrl: string, { sliceBytes = 2000, pauseMs = 25 }: SlowConnectionOptions = {}): Promise<SlowConnection> {
  const shop = new URL(shopUrl);
  const server = createServer((incoming, outgoing) => {
    const isPage = (incoming.headers.accept ?? '').includes('text/html');
    // A page is asked for uncompressed: the slices are then slices of the markup itself.
    const headers = isPage ? { ...incoming.headers, 'accept-encoding': 'identity' } : incoming.headers;
    const upstream = forward({ host: shop.hostname, port: shop.port, path: incoming.url, method: incoming.method, headers }, async (answer) => {
      if (!isPage) {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of answer) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const sliced = { ...answer.headers };
      delete sliced['content-length'];
      outgoing.writeHead(answer.statusCode ?? 502, sliced);
      for (let offset = 0; offset < body.length; offset += sliceBytes) {
        if (outgoing.destroyed) return;
        outgoing.write(body.subarray(offset, offset + sliceBytes));
        await pause(pauseMs);
      }
      outgoing.end();
    });
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
