/**
 * Security headers over a real socket: the storefront's pages and files, the API's answers (errors and CORS
 * preflights included), and a Content-Security-Policy built from the storefront configuration the server serves.
 * That the policy stops injected scripts and lets the storefront work is checked in Chromium
 * (`packages/storefront/e2e/security.e2e.test.ts`).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ID, SEARCH_KEY, startTestServer, tempDir } from '../test-support.ts';
import type { TestServer } from '../test-support.ts';

/** A CSP header as directive → sources. */
function parseCsp(header: string | null): Record<string, string[]> {
  expect(header).toBeTruthy();
  return Object.fromEntries(header!.split(';').map((directive) => {
    const [name, ...sources] = directive.trim().split(/\s+/);
    return [name, sources];
  }));
}

function expectPageHeaders(response: Response, what: string): void {
  expect(response.status, what).toBe(200);
  const csp = parseCsp(response.headers.get('content-security-policy'));
  expect(csp['default-src'], what).toEqual(["'self'"]);
  // No 'unsafe-inline' nor 'unsafe-eval': an injected inline script or handler does not run.
  expect(csp['script-src'], what).toEqual(["'self'"]);
  expect(csp['script-src-attr'], what).toEqual(["'none'"]);
  expect(csp['style-src'], what).toEqual(["'self'"]);
  // Style attributes: only the one of a server-rendered page's `<Stats>` (the hash of its exact text).
  expect(csp['style-src-attr'], what).toEqual(["'unsafe-hashes'", "'sha256-dix/XJG12kCqxLb6eWw0upinpGc+47pIN6TKw3ooax4='"]);
  expect(csp['object-src'], what).toEqual(["'none'"]);
  expect(csp['frame-ancestors'], what).toEqual(["'none'"]);
  expect(csp['connect-src'], what).toEqual(["'self'"]);
  expect(response.headers.get('x-frame-options'), what).toBe('DENY');
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(response.headers.get('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
}

describe('security headers', () => {
  const staticRoot = tempDir('vitrine-static-');
  let t: TestServer;
  const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

  beforeAll(async () => {
    writeFileSync(join(staticRoot, 'index.html'), '<!doctype html><title>shop</title>');
    mkdirSync(join(staticRoot, 'assets'));
    writeFileSync(join(staticRoot, 'assets', 'app.js'), 'console.log(1)');
    t = await startTestServer({
      config: {
        staticRoot,
        storefrontConfig: { provider: 'vitrine', appId: APP_ID, searchApiKey: SEARCH_KEY },
        // As the CLI's product images: a route with a stricter policy of its own.
        extend: [(app) => void app.get('/images/lamp.svg', async (_request, reply) => reply.type('image/svg+xml').header('content-security-policy', "default-src 'none'").send('<svg/>'))],
      },
      index: { name: 'products', settings: {}, records: [{ objectID: '1', name: 'Lamp' }] },
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(staticRoot, { recursive: true, force: true });
  });

  it('sends the CSP, nosniff, a referrer policy and frame protection with the storefront', async () => {
    for (const path of ['/', '/index.html', '/p/lamp-1', '/assets/app.js', '/vitrine.config.json']) {
      expectPageHeaders(await fetch(`${t.url}${path}`, { headers: html }), path);
    }
  });

  it("keeps a route's own policy", async () => {
    const image = await fetch(`${t.url}/images/lamp.svg`);
    expect(image.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('sends nosniff with every API answer, errors and preflights included, and keeps CORS open to any origin', async () => {
    const origin = { origin: 'https://shop.example' };
    const headers = { ...origin, 'x-algolia-application-id': APP_ID, 'x-algolia-api-key': SEARCH_KEY };
    const answers = {
      search: await fetch(`${t.url}/1/indexes/products/query`, { method: 'POST', headers, body: JSON.stringify({ query: 'lamp' }) }),
      isalive: await fetch(`${t.url}/1/isalive`, { headers: origin }),
      refused: await fetch(`${t.url}/1/keys`, { headers }),
      missing: await fetch(`${t.url}/1/nothing`, { headers }),
      analytics: await fetch(`${t.url}/2/searches?index=products`, { headers }),
      preflight: await fetch(`${t.url}/1/indexes/products/query`, {
        method: 'OPTIONS',
        headers: { ...origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-algolia-api-key' },
      }),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([name, response]) => [name, response.status]))).toEqual({
      search: 200, isalive: 200, refused: 403, missing: 404, analytics: 403, preflight: 204,
    });
    for (const [name, response] of Object.entries(answers)) {
      expect(response.headers.get('x-content-type-options'), name).toBe('nosniff');
    }
    for (const name of ['search', 'refused', 'analytics', 'preflight'] as const) {
      expect(answers[name].headers.get('access-control-allow-origin'), name).toBe('*');
    }
    expect(answers.preflight.headers.get('access-control-allow-headers')).toBe('x-algolia-api-key');
    expect(((await answers.search.json()) as { nbHits: number }).nbHits).toBe(1);
  });
});

describe('the CSP follows the storefront configuration', () => {
  async function cspOf(storefrontConfig: Record<string, unknown>): Promise<Record<string, string[]>> {
    const t = await startTestServer({ config: { storefrontConfig } });
    try {
      return parseCsp((await fetch(`${t.url}/vitrine.config.json`)).headers.get('content-security-policy'));
    } finally {
      await t.close();
    }
  }

  it("names Algolia's hosts in connect-src when the storefront talks to hosted Algolia", async () => {
    const csp = await cspOf({ provider: 'algolia', appId: 'ABC123', searchApiKey: 'key' });
    expect(csp['connect-src']).toEqual([
      "'self'",
      'https://*.algolia.net',
      'https://*.algolianet.com',
      'https://insights.algolia.io',
      'https://insights.de.algolia.io',
      'https://insights.us.algolia.io',
      'https://analytics.algolia.com',
    ]);
    expect(csp['script-src']).toEqual(["'self'"]);
  });

  it('names the CDN in script-src only when search-insights is loaded from it', async () => {
    const csp = await cspOf({ provider: 'algolia', appId: 'ABC123', searchApiKey: 'key', insights: { useCdn: true } });
    expect(csp['script-src']).toEqual(["'self'", 'https://cdn.jsdelivr.net']);
    expect((await cspOf({ provider: 'vitrine', appId: APP_ID, searchApiKey: SEARCH_KEY, insights: { useCdn: false } }))['connect-src']).toEqual(["'self'"]);
  });
});
