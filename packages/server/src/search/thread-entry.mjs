// Running from the TypeScript sources (tests, development), a search thread starts here: loaders registered on
// the main thread do not follow into workers, so register tsx in this thread, then load the thread's code.
// The compiled server starts `thread.js` directly (thread-spawn.ts).
import { register } from 'tsx/esm/api';

register();
await import('./thread.ts');
