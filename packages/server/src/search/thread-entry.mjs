// A search thread runs the server's TypeScript sources, like the main thread: register tsx in this thread
// (loaders registered on the main thread do not follow into workers), then load the thread's code.
import { register } from 'tsx/esm/api';

register();
await import('./thread.ts');
