import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './vite-precompress.ts';

/**
 * The build goes to `dist/`, which the Vitrine server serves with an SPA fallback. The manifest lets the
 * JS budget test find exactly the chunks the search page loads (the entry and its static imports).
 *
 * `npx vite` (dev) proxies the API (`/1/`, `/2/`), the generated config and the product images to a running Vitrine
 * server, `VITRINE_URL` (default http://localhost:3000), so the app runs same-origin as in production.
 *
 * The build also writes brotli and gzip copies of its text files (`vite-precompress.ts`), which the server sends
 * to browsers that accept them.
 */
const apiTarget = process.env.VITRINE_URL ?? 'http://localhost:3000';

/**
 * `vite build --ssr` (the second half of `npm run build`) writes the server renderer to `dist-server/`: one
 * module with React and react-instantsearch inside (`noExternal`), in React's production mode, so the server
 * loads it with a plain `import()` and needs none of the storefront's dependencies.
 */
const clientBuild = {
  outDir: 'dist',
  emptyOutDir: true,
  manifest: true,
  target: 'es2022',
  sourcemap: false,
  // The search page is one chunk of ~500 kB raw (~150 kB gzipped, see the budget test); that is expected.
  chunkSizeWarningLimit: 600,
};

const serverBuild = {
  outDir: 'dist-server',
  emptyOutDir: true,
  target: 'node20',
  sourcemap: false,
  rollupOptions: { input: 'src/ssr/entry-server.tsx', output: { entryFileNames: 'entry-server.js' } },
};

export default defineConfig(({ isSsrBuild }) => ({
  root: import.meta.dirname,
  plugins: isSsrBuild ? [react()] : [react(), precompress()],
  ...(isSsrBuild ? { define: { 'process.env.NODE_ENV': JSON.stringify('production') }, ssr: { noExternal: true, target: 'node' as const } } : {}),
  build: isSsrBuild ? serverBuild : clientBuild,
  server: {
    proxy: {
      '/1/': apiTarget,
      // The analytics dashboard's Analytics API routes.
      '/2/': apiTarget,
      '/vitrine.config.json': apiTarget,
      '/images/': apiTarget,
    },
  },
}));
