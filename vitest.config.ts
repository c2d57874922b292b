import { defineConfig } from 'vitest/config';

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
          // A poll waits for a condition; a loaded machine may take more than the default second to meet it.
          expect: { poll: { timeout: 10_000 } },
        },
      },
      {
        test: {
          name: 'browser',
          include: ['packages/storefront/e2e/**/*.e2e.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // One Chromium at a time: the machine has two cores.
          fileParallelism: false,
        },
      },
    ],
  },
});
