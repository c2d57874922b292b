/**
 * Loads the storefront's server renderer (`ServerConfig.storefrontRenderer`, the storefront's SSR bundle) with
 * a plain `import()`: the server package itself never imports React.
 */
import { pathToFileURL } from 'node:url';
import type { PageRenderer } from '@vitrine/protocol';

export async function loadPageRenderer(modulePath: string): Promise<PageRenderer> {
  const loaded = (await import(pathToFileURL(modulePath).href)) as Partial<PageRenderer>;
  if (typeof loaded.render !== 'function' || typeof loaded.sitemapPaths !== 'function') {
    throw new Error(`${modulePath} does not export render() and sitemapPaths()`);
  }
  return { render: loaded.render, sitemapPaths: loaded.sitemapPaths };
}
