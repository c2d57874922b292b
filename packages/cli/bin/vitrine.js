#!/usr/bin/env node
// The `vitrine` command. Vitrine runs its TypeScript sources directly: register tsx, then load the entry point.
// The server commands run in a child process with huge pages where the system offers them, their search
// threads started before the rest is loaded (src/launch.ts).
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const argv = process.argv.slice(2);
const { followLauncher, prespawnFor, relaunchEnv, runRelaunched } = await import('../src/launch.ts');
const env = relaunchEnv(argv);
if (env !== null) {
  process.exitCode = await runRelaunched(fileURLToPath(import.meta.url), argv, env);
} else {
  followLauncher();
  prespawnFor(argv);
  const { main } = await import('../src/main.ts');
  process.exitCode = await main(argv);
}
