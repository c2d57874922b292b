/**
 * The console screens still in this package (`src/console`, `src/admin`) read the services from here until they
 * move to `packages/console`; everything else imports `lib/services.ts`. Delete this file with that move.
 */
export { useServices } from '../lib/services.ts';
