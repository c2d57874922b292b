/**
 * @vitrine/storefront as seen from Node (the server, the CLI and the browser tests): where the built app is,
 * and the shape of the `vitrine.config.json` it reads. The app itself is `main.tsx`, built by Vite.
 */
import { fileURLToPath } from 'node:url';

export type { StorefrontConfig, ReplicaNames, SearchProvider } from './lib/config.ts';
export { parseStorefrontConfig } from './lib/config.ts';

/** Absolute path of the production build (`npm run build -w @vitrine/storefront`). */
export const storefrontDistDir: string = fileURLToPath(new URL('../dist', import.meta.url));

/** The server renderer built beside it (`dist-server/entry-server.js`, a `PageRenderer`), for `storefrontRenderer`. */
export const storefrontRendererPath: string = fileURLToPath(new URL('../dist-server/entry-server.js', import.meta.url));
