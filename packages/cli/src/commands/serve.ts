import { closeSync, existsSync, fsyncSync, openSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { inspectDataFolder, resolveKeys, startServer } from '@vitrine/server';
import { demoIndexName, demoReplicas } from '@vitrine/demo';
import { storefrontDistDir } from '@vitrine/storefront';
import { readEnvironment } from '../config/env.ts';
import type { CliContext } from '../context.ts';
import { untilAborted } from '../context.ts';
import { CliError } from '../errors.ts';
import { createProgress } from '../io/progress.ts';
import { formatBanner } from '../server/banner.ts';
import { generateDemoHistory } from '../server/demo-history.ts';
import { productImageRoutes } from '../server/images.ts';
import { seedDemoCatalogue, seedDemoStrategy } from '../server/seed.ts';
import { commandStartedAt, formatStartup, sinceStart } from '../server/startup-report.ts';
import type { Command, OptionValues } from './command.ts';

const ENVIRONMENT_HELP = `Environment:
  PORT                     Port to listen on (default 3000; 0 = any free port, printed at start)
  HOST                     Address to listen on (default localhost: this machine only)
  VITRINE_DATA_DIR         Data folder (default ./data)
  VITRINE_APP_ID           Application ID clients must send (default vitrine)
  VITRINE_ADMIN_API_KEY    Admin key; generated on first start and kept in the data folder when unset
                           (<data>/keys.json, "adminApiKey"; never printed)
  VITRINE_SEARCH_API_KEY   Search-only key; same
  VITRINE_DEMO_SIZE        Products in the demo catalogue created on first start (default 10000)
  VITRINE_STOREFRONT_DIR   A built storefront to serve (default: the one built into Vitrine)
  VITRINE_SEARCH_THREADS   Worker threads answering searches, each with a copy of the indexes in memory
                           (default 1 on a machine with 2 cores or more, else 0: searches on the main thread)
  VITRINE_INDEXING_SHARE   While searches are answered, the share of the server's time writes may take
                           (default 0.2: a shopper's searches stay fast during an import; 1: full speed)
  VITRINE_TRUST_PROXY      Behind a reverse proxy: its addresses or CIDR ranges, comma-separated (or loopback),
                           so per-IP limits see the client address from X-Forwarded-For; true trusts any
                           sender of the header (default false: the connection's address)
  VITRINE_PUBLIC_URL       The shop's public address (https://shop.example.com; several, comma-separated):
                           the origin of canonical URLs, the sitemap and robots.txt
  VITRINE_LOG_LEVEL        The server's log, JSON lines on stdout beside the banner's text: fatal, error, warn,
                           info (default: a line per request), debug, trace or silent`;

interface RunOptions {
  withStorefront: boolean;
  demo: boolean;
}

async function runServer(options: RunOptions, ctx: CliContext): Promise<void> {
  const startedAt = commandStartedAt(ctx.env);
  const clock = sinceStart(startedAt);
  const times = { modulesMs: clock(), listeningMs: 0, loadedMs: 0, readyMs: 0 };
  const env = readEnvironment(ctx.env, ctx.cwd);
  const staticRoot = env.storefrontDir ?? storefrontDistDir;
  if (options.withStorefront && !existsSync(join(staticRoot, 'index.html'))) {
    throw new CliError(
      env.storefrontDir
        ? `VITRINE_STOREFRONT_DIR (${staticRoot}) has no index.html`
        : 'The storefront is not built yet: run `npm run build` first (or `vitrine serve` for the API alone).',
    );
  }
  // Before anything is written into it (the keys): a folder of a newer format, damaged or not Vitrine's is refused as it is.
  try {
    inspectDataFolder(env.dataDir);
  } catch (error) {
    throw startupError(error, env.port);
  }
  const keys = resolveKeys(env.dataDir, { adminApiKey: env.adminApiKey, searchApiKey: env.searchApiKey });
  const server = await startServer({
    dataDir: env.dataDir,
    appId: env.appId,
    adminApiKey: keys.adminApiKey,
    searchApiKey: keys.searchApiKey,
    host: env.host,
    port: env.port,
    searchThreads: env.searchThreads,
    limits: { indexingShareWhileSearching: env.indexingShare },
    trustProxy: env.trustProxy,
    publicUrl: env.publicUrls,
    // JSON lines on this command's stdout, after the banner's text (README, "Monitoring").
    log: true,
    logLevel: env.logLevel,
    logStream: ctx.stdout,
    // With the demo, `/1/isalive` answers 503 until the catalogue is there (created below on a first start).
    ready: !options.demo,
    extend: [productImageRoutes],
    onListening: () => (times.listeningMs = clock()),
    ...(options.withStorefront
      ? {
          staticRoot,
          // Shoppers' pages are server-rendered when the renderer was built (`npm run build`); a storefront
          // from VITRINE_STOREFRONT_DIR brings its own `../dist-server/` or is served as an app shell.
          ...rendererFor(staticRoot),
          storefrontConfig: {
            provider: 'vitrine',
            appId: env.appId,
            searchApiKey: keys.searchApiKey,
            indexName: demoIndexName,
            replicas: { ...demoReplicas },
            insights: { useCdn: false },
          },
        }
      : {}),
  }).catch((error: unknown) => {
    throw startupError(error, env.port);
  });
  times.loadedMs = clock();
  try {
    // Present while the demo catalogue is being written: a start interrupted half way resumes it next time
    // (the products are generated deterministically, so writing them again is idempotent).
    const seeding = join(env.dataDir, 'demo-seeding');
    const interrupted = existsSync(seeding);
    if (options.demo && (!server.store.hasIndex(demoIndexName) || interrupted) && !ctx.signal.aborted) {
      const verb = interrupted ? 'Resuming' : 'Creating';
      ctx.stdout.write(`${verb} the demo catalogue (${env.demoSize.toLocaleString('en-US')} products)…\n`);
      markDurably(seeding);
      const progress = createProgress({ stream: ctx.stdout, label: 'Demo catalogue', total: env.demoSize, unit: 'records' });
      await seedDemoCatalogue(server.store, {
        size: env.demoSize,
        onProgress: (written) => progress.update(written, ''),
      });
      progress.stop(env.demoSize, 'done');
      unlinkSync(seeding);
    }
    if (options.demo && server.store.hasIndex(demoIndexName) && !ctx.signal.aborted) {
      // A plausible past of searches and events, so recommendations, trends, suggestions, the dashboard and
      // learning (re-ranking, personalization, query categorization) have something to show on a fresh start.
      // Loaded once: never over a shop's real activity. The strategy goes first, so the first build's profiles follow it.
      const seeded = await server.insights.seedIfEmpty(() => {
        seedDemoStrategy(server.insights.personalization);
        return generateDemoHistory(Math.min(env.demoSize, 20_000));
      });
      if (seeded) await server.insights.buildQuerySuggestions();
    }
    server.setReady(true);
    ctx.stdout.write(
      formatBanner({
        url: server.url,
        withStorefront: options.withStorefront,
        appId: env.appId,
        adminKeyFrom: env.adminApiKey === undefined ? 'file' : 'environment',
        searchApiKey: keys.searchApiKey,
        dataDir: env.dataDir,
      }),
    );
    // `/1/isalive` answers 200 once a search thread is ready too (at once without threads).
    const threads = server.app.searchThreads;
    if (threads !== undefined) await Promise.race([threads.whenReady(), untilAborted(ctx.signal)]);
    if (!ctx.signal.aborted) {
      times.readyMs = clock();
      ctx.stdout.write(formatStartup(times, server, startedAt));
    }
    await untilAborted(ctx.signal);
    ctx.stdout.write('Stopping…\n');
  } finally {
    await server.close();
  }
}

export const startCommand: Command = {
  name: 'start',
  summary: 'Run the storefront and the search API (creates the demo catalogue on first start)',
  help: `Usage: vitrine start

Runs the storefront and the Algolia-compatible search API in one process. On first start (no "products"
index in the data folder) it creates the demo catalogue. Needs the built storefront (npm run build).

${ENVIRONMENT_HELP}`,
  options: {},
  positionals: { min: 0, max: 0 },
  run: (_values: OptionValues, _positionals, ctx) => runServer({ withStorefront: true, demo: true }, ctx),
};

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Run the search API alone',
  help: `Usage: vitrine serve [--demo]

Runs the Algolia-compatible search API alone (no storefront).

Options:
  --demo       Create the demo catalogue when the data folder has no "products" index

${ENVIRONMENT_HELP}`,
  options: { demo: { type: 'boolean' } },
  positionals: { min: 0, max: 0 },
  run: (values, _positionals, ctx) => runServer({ withStorefront: false, demo: values.demo === true }, ctx),
};

function rendererFor(staticRoot: string): { storefrontRenderer?: string } {
  const beside = join(staticRoot, '..', 'dist-server', 'entry-server.js');
  return existsSync(beside) ? { storefrontRenderer: beside } : {};
}

/** Creates an empty file and flushes it, so that it is on disk before the writes it announces. */
function markDurably(path: string): void {
  const fd = openSync(path, 'w');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Start-up failures a user can fix, as plain messages instead of stack traces. */
function startupError(error: unknown, port: number): unknown {
  const code = (error as { code?: string } | null)?.code;
  if (code === 'EADDRINUSE') return new CliError(`port ${port} is already in use: stop the other server or set PORT`, { cause: error });
  if (code === 'VITRINE_DATA_FOLDER') return new CliError((error as Error).message, { cause: error });
  if (code === 'VITRINE_DATA_DIR_IN_USE') {
    return new CliError(`${(error as Error).message}: stop it, or set VITRINE_DATA_DIR to another folder`, { cause: error });
  }
  return error;
}
