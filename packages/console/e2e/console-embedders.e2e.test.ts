/**
 * The console's Embedders screen against the real server: the demo catalogue's index with a rest embedder (the
 * server tests' loopback embedder), its records' vectors counted as they are filled, and the embedder's outage
 * shown as the server reports it (state and last error), the screen reading again by itself meanwhile.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIndexName } from '@vitrine/demo';
import { restEmbedderSettings, startTestEmbedder, type TestEmbedder } from '../../server/test/fixtures/embedder-server.ts';
import { api, openScreen, useSignedInConsole } from './console-helpers.ts';

const DIMS = 16;
const session = useSignedInConsole();
let embedder: TestEmbedder;

beforeAll(async () => {
  embedder = await startTestEmbedder(DIMS);
  const { status } = await api(session.harness, 'PUT', `/1/indexes/${demoIndexName}/settings`, { embedders: { meaning: restEmbedderSettings(embedder, DIMS, 'openai', { documentTemplate: '{{doc.name}}' }) } });
  expect(status).toBe(200);
});

afterAll(async () => {
  await embedder?.close();
});

const row = () => session.page.locator('tr[data-embedder="meaning"]');
const cells = () => row().locator('th, td').allTextContents();

describe('console embedders', () => {
  it('lists the index\'s embedders with their records\' vectors, read again until every record has one', async () => {
    await openScreen(session.page, 'Embedders');
    const records = session.harness.products.length.toLocaleString('en');
    await expect.poll(cells).toEqual(['meaning', 'rest', String(DIMS), records, '0', 'Up to date', '—']);
  });

  it('shows an outage as the server reports it: failing, with the last error', async () => {
    embedder.mode = 'down';
    try {
      const product = session.harness.products[0];
      const { status } = await api(session.harness, 'POST', `/1/indexes/${demoIndexName}/batch`, { requests: [{ action: 'partialUpdateObject', body: { objectID: product.objectID, name: `${product.name} (renamed)` } }] });
      expect(status).toBe(200);
      await session.page.getByRole('button', { name: 'Refresh' }).click();
      await expect.poll(() => row().getAttribute('data-state')).toBe('failing');
      await expect.poll(cells).toEqual(['meaning', 'rest', String(DIMS), expect.any(String), '1', 'Failing', expect.stringContaining('answered 503')]);
    } finally {
      embedder.mode = 'ok';
    }
  });
});
