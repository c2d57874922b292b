#!/usr/bin/env node
// The `vitrine` command. It runs the compiled JavaScript (`dist/`, built by `npm run build`); started with
// `node --conditions=source` (tests, development) it runs the TypeScript sources through tsx instead.
// The server commands run in a child process with huge pages where the system offers them, their search
// threads started before the rest is loaded (src/launch.ts).
import { fileURLToPath } from 'node:url';

/** A module of this package, as the active conditions resolve it: `dist/<name>.js`, or `src/<name>.ts`. */
const own = (name) => import.meta.resolve(`@vitrine/cli/${name}`);

const launchModule = own('launch');
if (launchModule.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api');
  register();
}
let launch;
try {
  launch = await import(launchModule);
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes(fileURLToPath(launchModule))) throw error;
  process.stderr.write('vitrine: this copy is not built yet: run `npm run build` first (or `node --conditions=source` to run the sources).\n');
  process.exit(1);
}
const { followLauncher, prespawnFor, relaunchEnv, runRelaunched } = launch;
const argv = process.argv.slice(2);
const env = relaunchEnv(argv);
if (env !== null) {
  process.exitCode = await runRelaunched(fileURLToPath(import.meta.url), argv, env);
} else {
  followLauncher();
  prespawnFor(argv);
  const { main } = await import(own('main'));
  process.exitCode = await main(argv);
}
