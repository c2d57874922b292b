// Running from the TypeScript sources (tests, development), the profile thread starts here: loaders registered
// on the main thread do not follow into workers, so register tsx in this thread, then load the thread's code.
// The compiled package starts `profile-thread.js` directly (profile-builder.ts).
import { register } from 'tsx/esm/api';

register();
await import('./profile-thread.ts');
