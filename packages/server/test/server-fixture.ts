/**
 * A real server on an ephemeral loopback port with a temporary data folder, for the client compatibility suites.
 */
import { rmSync } from 'node:fs';
import { startServer } from '../src/index.ts';
import type { RunningServer } from '../src/index.ts';
import { tempDir } from '../src/test-helpers.ts';

export const APP_ID = 'compat-app';
export const ADMIN_KEY = 'compat-admin-key-0123456789abcdef';
export const SEARCH_KEY = 'compat-search-key-0123456789abcde';

export interface Fixture {
  server: RunningServer;
  host: string;
  close(): Promise<void>;
}

export async function startFixture(): Promise<Fixture> {
  const dataDir = tempDir('vitrine-compat-');
  const server = await startServer({ dataDir, appId: APP_ID, adminApiKey: ADMIN_KEY, searchApiKey: SEARCH_KEY, port: 0 });
  return {
    server,
    host: `127.0.0.1:${server.port}`,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const PRODUCTS = [
  { objectID: 'p1', name: 'Lumio ceramic table lamp', brand: 'Lumio', color: 'red', price: 40, stock: 3 },
  { objectID: 'p2', name: 'Lumio brass floor lamp', brand: 'Lumio', color: 'gold', price: 120, stock: 1 },
  { objectID: 'p3', name: 'Nordhus oak desk', brand: 'Nordhus', color: 'brown', price: 300, stock: 5 },
  { objectID: 'p4', name: 'Nordhus oak chair', brand: 'Nordhus', color: 'brown', price: 90, stock: 0 },
  { objectID: 'p5', name: 'Apple wireless keyboard', brand: 'Apple', color: 'white', price: 99, stock: 7 },
];

export const SETTINGS = {
  searchableAttributes: ['name', 'brand'],
  attributesForFaceting: ['searchable(brand)', 'color', 'price'],
  customRanking: ['desc(stock)'],
};
