/** Helpers for the merchant console's browser tests: sign in as an operator would, and ask the API directly. */
import { afterAll, beforeAll, expect } from 'vitest';
import type { Page } from 'playwright-core';
import { startHarness } from '../../storefront/e2e/harness.ts';
import type { Harness, HarnessOptions } from '../../storefront/e2e/harness.ts';

/** Opens `path` (default the console's home), signs in with `key` and waits for the console's navigation. */
export async function signIn(page: Page, key: string, path = '/admin'): Promise<void> {
  await page.goto(path);
  await page.getByLabel('Admin API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
}

/** Opens a console screen from its navigation link. */
export async function openScreen(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 2, name }).waitFor();
}

/** Calls the server's API with the admin key (or `key`), as a check independent of the console. */
export async function api<T>(harness: Harness, method: string, path: string, body?: unknown, key = harness.adminApiKey): Promise<{ status: number; json: T }> {
  const response = await fetch(`${harness.baseURL}${path}`, {
    method,
    headers: { 'x-algolia-application-id': harness.appId, 'x-algolia-api-key': key, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as T };
}

/** Waits for the status line of a console action to say `text` (actions report "… published." when their task is). */
export async function expectStatus(page: Page, text: string | RegExp): Promise<void> {
  await expect.poll(() => page.getByRole('status').allTextContents().then((all) => all.join(' | '))).toMatch(text);
}

/**
 * For a test file with one server and one console page signed in with the admin key: started before the file's
 * tests, closed after. Read its `harness` and `page` inside tests (they are set once `beforeAll` has run).
 */
export function useSignedInConsole(options: HarnessOptions = {}): { harness: Harness; page: Page } {
  const session = {} as { harness: Harness; page: Page };
  beforeAll(async () => {
    session.harness = await startHarness(options);
    session.page = await session.harness.newPage();
    await signIn(session.page, session.harness.adminApiKey);
  });
  afterAll(async () => {
    await session.harness?.close();
  });
  return session;
}
