// The insights database's checkpoints, in a thread of their own (see `checkpointer.ts`): a second connection to
// the database that runs a passive checkpoint every `intervalMs` (and when asked) and reports each one's outcome.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { file, intervalMs } = workerData;
const db = new Database(file, { fileMustExist: true });
function checkpoint(asked) {
  try {
    // Passive: copies what no reader still needs, never waits for a lock, never blocks the writer.
    const [outcome] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ type: 'checkpoint', asked, ...outcome });
  } catch (error) {
    parentPort.postMessage({ type: 'error', message: String(error?.message ?? error) });
  }
}
const timer = setInterval(() => checkpoint(false), intervalMs);

parentPort.on('message', (message) => {
  if (message === 'checkpoint') checkpoint(true);
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
