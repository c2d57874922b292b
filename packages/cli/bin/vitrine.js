#!/usr/bin/env node
// The `vitrine` command. Vitrine runs its TypeScript sources directly: register tsx, then load the entry point.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
