/**
 * The thread of one profile build pass (`profile-builder.ts` starts it): a read-only connection to the models'
 * aggregates, the profiles file's only writer, one pass (`derive.ts`), its reply, and the end of the thread.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { deriveProfiles } from './derive.ts';
import type { ProfileBuildReply, ProfileBuildRequest } from './derive.ts';
import { ProfileStore } from './profile-store.ts';

const { modelsFile, profilesFile, request } = workerData as { modelsFile: string; profilesFile: string; request: ProfileBuildRequest };
let reply: ProfileBuildReply | { error: string };
const models = new Database(modelsFile, { readonly: true, fileMustExist: true });
const store = new ProfileStore(profilesFile);
try {
  reply = deriveProfiles(models, store, request);
} catch (error) {
  reply = { error: error instanceof Error ? error.message : String(error) };
} finally {
  store.close();
  models.close();
}
parentPort!.postMessage(reply);
