/**
 * The thread that builds the recommendation models (`model-builder.ts` starts it): a read-only connection of its
 * own to the insights database, the models' aggregates (`model-store.ts`, written only by builds), one build per
 * request, the packed models sent back with their arrays transferred.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import type { InsightsOptions } from './deps.ts';
import { transferList } from './model-tables.ts';
import { ModelStore } from './model-store.ts';
import { buildModels } from './models.ts';
import { buildReRanking } from './reranking/build.ts';
import { readEngagement } from './categorization/engagement.ts';
import type { BuildReply, BuildRequest } from './model-builder.ts';

const port = parentPort!;
const files = workerData as { file: string; modelsFile: string };
const db = new Database(files.file, { readonly: true, fileMustExist: true });
const store = new ModelStore(files.modelsFile);

port.on('message', (message: BuildRequest | 'stop') => {
  if (message === 'stop') {
    store.close();
    db.close();
    port.close();
    return;
  }
  let reply: BuildReply;
  try {
    const { packed, report } = buildModels(db, store, message.now, message.options as InsightsOptions, { full: message.full });
    // Dynamic re-ranking's model, from the search log's daily aggregates of the same window (`reranking/build.ts`).
    const windowDays = (message.options as InsightsOptions).modelWindowDays;
    const reRanking = buildReRanking(db, message.now, windowDays);
    reply = { id: message.id, packed, report, reRanking, engagement: readEngagement(db, message.now, windowDays) };
    port.postMessage(reply, transferList(packed));
  } catch (error) {
    reply = { id: message.id, error: error instanceof Error ? error.message : String(error) };
    port.postMessage(reply);
  }
});
