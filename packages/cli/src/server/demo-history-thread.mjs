// Generates the demo's history in a worker thread, which runs the TypeScript sources like the main thread:
// register tsx here (loaders registered on the main thread do not follow into workers), then generate.
import { register } from 'tsx/esm/api';
import { parentPort, workerData } from 'node:worker_threads';

register();
const { generateHistory, generateProducts } = await import('@vitrine/demo');
parentPort.postMessage(generateHistory(generateProducts(workerData.products)));
