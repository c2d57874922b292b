// Running from the TypeScript sources (tests, development), the model thread starts here: loaders registered on
// the main thread do not follow into workers, so register tsx in this thread, then load the thread's code.
// The compiled server starts `model-thread.js` directly (local-models.ts).
import { register } from 'tsx/esm/api';

register();
await import('./model-thread.ts');
