/**
 * Browser-test harness: the real Vitrine server on a temp data folder, seeded with a small demo catalogue and
 * serving the built storefront (`dist/`), plus one headless Chromium. One harness per test file: start it in
 * beforeAll, close it in afterAll.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { startServer } from '@vitrine/server';
import type { RunningServer } from '@vitrine/server';
import {
  demoIndexName,
  demoPersonalizationStrategy,
  demoReplicas,
  demoReplicaSettings,
  demoRuleSources,
  demoRules,
  demoSettings,
  generateHistory,
  generateProducts,
  isDemoFacet,
  renderProductImage,
} from '@vitrine/demo';
import type { IncomingRecord, Product } from '@vitrine/protocol';
import { storefrontDistDir, storefrontRendererPath } from '../src/index.ts';

export interface HarnessOptions {
  /** Demo products to generate (seeded, so every run sees the same catalogue). Default 300. */
  products?: number;
  /** Extra records saved after the demo catalogue (e.g. hostile content). */
  extraRecords?: IncomingRecord[];
  /**
   * Load `days` days of the demo's generated shop history (default 30) into the server's insights, then build
   * the recommendation models and the query suggestions index from it. Without it the shop has no past: no
   * recommendations, no suggestions, empty analytics.
   */
  history?: { days?: number; sessionsPerDay?: number };
  /**
   * With `history`: set the demo's personalization strategy, as `vitrine start` does, and build the profiles of
   * the history's shoppers (`demo-user-N`) from it.
   */
  personalization?: boolean;
  /**
   * Save the demo's merchandising rules (`demoRules`: pinned lamp, sale banner, help redirect, boosted brand in
   * the lamp's department), as `vitrine start` does. Off by default, so other tests see plain relevance.
   */
  rules?: boolean;
  /** Fields of the served `vitrine.config.json` over the default ones (e.g. `provider: 'algolia'`). */
  storefrontConfig?: Record<string, unknown>;
}

export interface Harness {
  server: RunningServer;
  browser: Browser;
  baseURL: string;
  appId: string;
  searchApiKey: string;
  adminApiKey: string;
  /** The seeded demo products, in generation order. */
  products: Product[];
  /**
   * The query suggestions built from the seeded history, most popular first, each with its top category: tests
   * type what the history made popular rather than a query that depends on which products a seed generates.
   */
  suggestions(): Promise<Array<{ query: string; category?: string }>>;
  /** A fresh browser context (own storage) and page; closed with the harness. */
  newPage(options?: { width?: number; height?: number }): Promise<Page>;
  close(): Promise<void>;
}

export const seed = 7;

/** The two screens every new browser test of the shop looks at. */
export const desktop = { width: 1366, height: 900 };
export const phone = { width: 390, height: 844 };

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  if (!existsSync(join(storefrontDistDir, 'index.html'))) {
    throw new Error('The storefront is not built: run `npm run build -w @vitrine/storefront` before the browser tests.');
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-e2e-'));
  const appId = 'vitrine-e2e';
  const adminApiKey = randomBytes(16).toString('hex');
  const searchApiKey = randomBytes(16).toString('hex');
  const server = await startServer({
    dataDir,
    appId,
    adminApiKey,
    searchApiKey,
    port: 0,
    // As `vitrine start` runs on this machine: searches answered by a search thread.
    searchThreads: 1,
    staticRoot: storefrontDistDir,
    storefrontRenderer: storefrontRendererPath,
    storefrontConfig: {
      provider: 'vitrine',
      appId,
      searchApiKey,
      indexName: demoIndexName,
      replicas: { ...demoReplicas },
      insights: { useCdn: false },
      ...options.storefrontConfig,
    },
    extend: [
      (app) => {
        app.get<{ Params: { name: string } }>('/images/products/:name', async (request, reply) => {
          const svg = renderProductImage(request.params.name);
          if (svg === undefined) return reply.code(404).send({ message: 'Not Found', status: 404 });
          // As the CLI serves them: immutable, so a browser fetches each illustration once.
          return reply.type('image/svg+xml').header('cache-control', 'public, max-age=31536000, immutable').send(svg);
        });
      },
    ],
    // Models and suggestions are built when a test seeds a history, never by a timer racing its assertions.
    insights: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0, searchFlushIntervalMs: 50 },
  });

  const products = [...generateProducts(options.products ?? 300, seed)];
  try {
    const { store } = server;
    await store.waitForTask((await store.setSettings(demoIndexName, demoSettings)).taskID);
    for (const [replica, settings] of Object.entries(demoReplicaSettings)) {
      await store.waitForTask((await store.setSettings(replica, settings)).taskID);
    }
    await store.waitForTask((await store.saveObjects(demoIndexName, products)).taskID);
    if (options.rules) {
      const sources = demoRuleSources();
      for (const product of products) sources.add(product);
      await store.waitForTask((await store.saveRules(demoIndexName, demoRules(sources))).taskID);
    }
    if (options.extraRecords?.length) await store.waitForTask((await store.saveObjects(demoIndexName, options.extraRecords)).taskID);
    // Fail fast and clearly when seeding went wrong, instead of every test timing out on an empty page.
    const response = await fetch(`${server.url}/1/indexes/${demoIndexName}/query`, {
      method: 'POST',
      headers: { 'x-algolia-application-id': appId, 'x-algolia-api-key': searchApiKey },
      body: JSON.stringify({ query: '', hitsPerPage: 0 }),
    });
    const { nbHits } = (await response.json()) as { nbHits?: number };
    const expected = products.length + (options.extraRecords?.length ?? 0);
    if (nbHits !== expected) throw new Error(`seeding the test catalogue failed: ${nbHits} of ${expected} records searchable`);
    if (options.history) {
      const history = generateHistory(products, {
        seed,
        now: Date.now(),
        days: options.history.days ?? 30,
        sessionsPerDay: options.history.sessionsPerDay ?? 40,
        indexName: demoIndexName,
      });
      server.insights.importHistory(history);
      // The import builds the models at once, but a build the server started on its empty history may end
      // after it and replace them (a loaded machine): the build asked now comes after any under way.
      await server.insights.rebuildModels();
      await server.insights.buildQuerySuggestions();
      if (options.personalization) {
        server.insights.personalization.setStrategy(demoPersonalizationStrategy, isDemoFacet);
        // The import built the models without a strategy: a build now derives the profiles.
        await server.insights.rebuildModels();
      }
    }
  } catch (error) {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }

  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  } catch (error) {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const contexts: BrowserContext[] = [];
  return {
    server,
    browser,
    baseURL: server.url,
    appId,
    searchApiKey,
    adminApiKey,
    products,
    async suggestions() {
      const response = await fetch(`${server.url}/1/indexes/${demoIndexName}_query_suggestions/query`, {
        method: 'POST',
        headers: { 'x-algolia-application-id': appId, 'x-algolia-api-key': searchApiKey },
        body: JSON.stringify({ query: '', hitsPerPage: 100 }),
      });
      type Hit = { query: string } & Record<string, { facets?: { exact_matches?: Record<string, Array<{ value: string }>> } } | string>;
      const { hits } = (await response.json()) as { hits: Hit[] };
      return hits.map((hit) => {
        const source = hit[demoIndexName] as { facets?: { exact_matches?: Record<string, Array<{ value: string }>> } } | undefined;
        return { query: hit.query, category: source?.facets?.exact_matches?.['hierarchicalCategories.lvl0']?.[0]?.value };
      });
    },
    async newPage({ width = 1280, height = 900 } = {}) {
      const context = await browser.newContext({ baseURL: server.url, viewport: { width, height } });
      contexts.push(context);
      return context.newPage();
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => {});
      await browser.close();
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Opens a shop page and waits until the app is live (`<html data-hydrated>`): a server-rendered page shows its
 * hits before its script runs, and a filter clicked before then does nothing but follow a link.
 */
export async function openShopPage(page: Page, path: string): Promise<Response | null> {
  const response = await page.goto(path);
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  return response;
}

/** Types into the search box one key at a time, as a shopper would. */
export async function typeQuery(page: Page, text: string): Promise<void> {
  await page.locator('.vt-header-search .ais-SearchBox-input').pressSequentially(text);
}

/** Names of the hits on screen, in order. */
export function hitNames(page: Page): Promise<string[]> {
  return page.locator('.vt-hit-name').allTextContents();
}

/** A Content-Security-Policy violation as the page reported it. */
export interface CspViolation {
  directive: string;
  blocked: string;
  page: string;
}

/**
 * Collects every CSP violation the page's documents report (`securitypolicyviolation` events, across
 * navigations) and every console error about the policy. Call before the first navigation.
 */
export async function recordCspViolations(page: Page): Promise<{ violations: CspViolation[]; consoleErrors: string[] }> {
  const violations: CspViolation[] = [];
  const consoleErrors: string[] = [];
  await page.exposeFunction('__vitrineCspViolation', (violation: CspViolation) => void violations.push(violation));
  await page.addInitScript(() => {
    const report = (window as unknown as { __vitrineCspViolation: (violation: CspViolation) => void }).__vitrineCspViolation;
    document.addEventListener('securitypolicyviolation', (event) => {
      report({ directive: event.effectiveDirective, blocked: event.blockedURI, page: location.pathname });
    });
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) consoleErrors.push(message.text());
  });
  return { violations, consoleErrors };
}

/**
 * For a test file that needs one harness and one page: starts them before the file's tests, closes them after.
 * Read `shop.harness` and `shop.page` inside tests (they are set once `beforeAll` has run).
 */
export function useShop(options: HarnessOptions = {}, viewport = desktop): { harness: Harness; page: Page } {
  const shop = {} as { harness: Harness; page: Page };
  beforeAll(async () => {
    shop.harness = await startHarness(options);
    shop.page = await shop.harness.newPage(viewport);
  });
  afterAll(async () => {
    await shop.harness?.close();
  });
  return shop;
}

/** Fills the checkout form with a valid shopper and address. */
export async function fillCheckoutForm(page: Page): Promise<void> {
  await page.getByLabel('Full name').fill('Ada Shopper');
  await page.getByLabel('Email').fill('ada@example.test');
  await page.getByLabel('Street address').fill('1 Main Street');
  await page.getByLabel('City').fill('Springfield');
  await page.getByLabel('Postcode').fill('12345');
}
