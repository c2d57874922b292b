import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Tests run the TypeScript sources: the workspace's packages resolve to `src/` through the `source` export
 * condition, both where Vite resolves (test files and what they import) and where Node does (the test workers,
 * their worker threads and the processes they spawn pass the flag on).
 */
const fromSources = {
  resolve: { conditions: ['source', ...defaultServerConditions] },
  ssr: { resolve: { conditions: ['source', ...defaultServerConditions], externalConditions: ['source'] } },
};
const sourceExecArgv = ['--conditions=source'];

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
  ...fromSources,
  test: {
    // In CI, also write a JSON report: .ci/run prints its totals as the closing line.
    reporters: process.env.CI ? ['default', ['json', { outputFile: '.vitrine-tmp/vitest-report.json' }]] : ['default'],
    projects: [
      {
        ...fromSources,
        test: {
          name: 'unit',
          execArgv: sourceExecArgv,
          include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          expect: pollWhileLoaded,
        },
      },
      {
        ...fromSources,
        test: {
          name: 'browser',
          execArgv: sourceExecArgv,
          include: ['packages/storefront/e2e/**/*.e2e.test.ts', 'packages/console/e2e/**/*.e2e.test.ts'],
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
