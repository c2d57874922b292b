/**
 * The insights database's checkpoints run in a thread of their own: the main connection never checkpoints, the
 * thread keeps the log from growing round after round of writes, a failed thread gives the checkpoints back to
 * the main connection, and a stopped one leaves the main connection the last, so closing it removes the log.
 */
import { existsSync, statSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { Checkpointer } from './checkpointer.ts';
import { openInsightsDb } from './db.ts';
import { removeDir, tempDir } from './test-support.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function openDb(): { db: ReturnType<typeof openInsightsDb>; wal: string } {
  const dir = tempDir('vitrine-checkpoint-');
  dirs.push(dir);
  const db = openInsightsDb(dir);
  return { db, wal: `${db.name}-wal` };
}

/** About 1,500 pages of rows, in one transaction (past SQLite's automatic checkpoint at 1,000). */
function writeRound(db: ReturnType<typeof openInsightsDb>, round: number): void {
  const insert = db.prepare('INSERT INTO query_daily (index_name, day, tags, query, searches) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < 20_000; i++) insert.run('products', round, '', `query ${i} ${'x'.repeat(200)}`, 1);
  })();
}

function failOnError(message: string, error: unknown): void {
  throw new Error(`${message}: ${String(error)}`);
}

describe('the insights checkpoint thread', () => {
  it('checkpoints in its own thread, the main connection never, and the log stays bounded', async () => {
    const { db, wal } = openDb();
    // Checkpoints only when the test asks.
    const checkpointer = new Checkpointer(db, 3_600_000, failOnError);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    writeRound(db, 0);
    const first = await checkpointer.checkpointNow();
    expect(first).toMatchObject({ busy: 0, checkpointed: first.log });
    expect(first.log).toBeGreaterThan(1000);
    const size = statSync(wal).size;
    // Each round starts the log again from its beginning once the previous one is copied: without the thread
    // (and the main connection's checkpoints off) the log would hold all five rounds.
    for (let round = 1; round <= 4; round++) {
      writeRound(db, round);
      const outcome = await checkpointer.checkpointNow();
      expect(outcome).toMatchObject({ busy: 0, checkpointed: outcome.log });
    }
    expect(statSync(wal).size).toBeLessThan(size * 1.5);
    expect(db.prepare('SELECT COUNT(*) FROM query_daily').pluck().get()).toBe(100_000);
    await checkpointer.stop();
    db.close();
    // The main connection, closed last, checkpointed and removed the log.
    expect(existsSync(wal)).toBe(false);
  });

  it('runs them every intervalMs', async () => {
    const { db } = openDb();
    const checkpointer = new Checkpointer(db, 10, failOnError);
    writeRound(db, 0);
    // Checkpoints run while the round was written report the log before it (the schema's few pages).
    let outcome = await checkpointer.next();
    while (outcome.log < 1000 || outcome.checkpointed < outcome.log) outcome = await checkpointer.next();
    // The thread may start only after the round is written, its first checkpoint then copying it all: one more
    // shows it keeps running by itself, unasked.
    const done = checkpointer.checkpoints;
    await checkpointer.next();
    expect(checkpointer.checkpoints).toBeGreaterThan(done);
    await checkpointer.stop();
    db.close();
  });

  it('gives the checkpoints back to the main connection when the thread fails', async () => {
    const dir = tempDir('vitrine-checkpoint-');
    const db = openInsightsDb(dir);
    // The thread opens the database by its name: gone, it fails.
    removeDir(dir);
    const failed = new Promise<string>((resolve) => new Checkpointer(db, 10, (message) => resolve(message)));
    expect(await failed).toMatch(/checkpoint thread failed/);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    db.close();
  });
});
