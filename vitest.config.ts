import { defineConfig } from 'vitest/config';

/**
 * A condition settles in milliseconds here, but a loaded two-core CI machine can take seconds: `expect.poll`
 * waits up to 10 s instead of Vitest's default 1 s (a condition already met still returns at once).
 */
const pollWhileLoaded = { poll: { timeout: 10_000 } };

/**
 * Two projects: `unit` (engine, server over real sockets, CLI, demo: everything in Node) and `browser`
 * (storefront behaviour in headless Chromium driven by playwright-core). `npm test` runs both.
 */
export default defineConfig({
  test: {
    // In CI, also write a JSON report: .ci/run prints its totals as the closing line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.vitrine-tmp/vitest-report.json' }]] : ['default'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          expect: pollWhileLoaded,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['packages/storefront/e2e/**/*.e2e.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          expect: pollWhileLoaded,
          // One Chromium at a time: the machine has two cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
