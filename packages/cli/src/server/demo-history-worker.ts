/** The demo history thread's work (`demo-history.ts` starts it): the history of the first `products` demo products. */
import { parentPort, workerData } from 'node:worker_threads';
import { generateHistory, generateProducts } from '@vitrine/demo';

parentPort!.postMessage(generateHistory(generateProducts((workerData as { products: number }).products)));
