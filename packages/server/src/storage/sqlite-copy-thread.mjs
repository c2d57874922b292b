// A consistent copy of a SQLite database, made by a thread of its own (see `copySqliteFile` in backup.ts): a
// second connection runs `VACUUM INTO`, one read transaction, which the writer of a WAL database does not wait
// for. Answers { error } or {} and ends.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const { from, to } = workerData;
try {
  const db = new Database(from, { fileMustExist: true });
  try {
    db.prepare('VACUUM INTO ?').run(to);
  } finally {
    db.close();
  }
  parentPort.postMessage({});
} catch (error) {
  parentPort.postMessage({ error: String(error?.message ?? error) });
}
