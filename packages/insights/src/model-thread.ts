/**
 * The thread that builds the recommendation models (`model-builder.ts` starts it): a read-only connection of its
 * own to the insights database, one build per request, the packed models sent back with their arrays transferred.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { InsightsOptions } from './deps.ts';
import { transferList } from './model-tables.ts';
import { buildModels } from './models.ts';
import type { BuildReply, BuildRequest } from './model-builder.ts';

const port = parentPort!;
const db = new Database((workerData as { file: string }).file, { readonly: true, fileMustExist: true });

port.on('message', (message: BuildRequest | 'stop') => {
  if (message === 'stop') {
    db.close();
    port.close();
    return;
  }
  let reply: BuildReply;
  try {
    const packed = buildModels(db, message.now, message.options as InsightsOptions);
    reply = { id: message.id, packed };
    port.postMessage(reply, transferList(packed));
  } catch (error) {
    reply = { id: message.id, error: error instanceof Error ? error.message : String(error) };
    port.postMessage(reply);
  }
});
