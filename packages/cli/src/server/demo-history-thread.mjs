// Running from the TypeScript sources (tests, development), the demo history thread starts here: loaders
// registered on the main thread do not follow into workers, so register tsx in this thread, then load its work.
// The compiled command starts `demo-history-worker.js` directly.
import { register } from 'tsx/esm/api';

register();
await import('./demo-history-worker.ts');
