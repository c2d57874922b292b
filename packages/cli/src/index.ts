/**
 * @vitrine/cli: the `vitrine` command, and the pieces other packages reuse in-process (seeding the demo
 * catalogue into a server's store, the product image routes).
 */
export { main, commands } from './main.ts';
export type { CliContext, OutputStream } from './context.ts';
export { seedDemoCatalogue } from './server/seed.ts';
export type { SeedOptions } from './server/seed.ts';
export { productImageRoutes } from './server/images.ts';
export { readEnvironment } from './config/env.ts';
export type { Environment } from './config/env.ts';
