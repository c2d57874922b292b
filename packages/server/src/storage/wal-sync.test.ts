/**
 * WalSync: one fsync for every commit made while the previous one ran, and never an acknowledgement from an
 * fsync that started before the commit. The fsync is a stand-in whose completions the test triggers.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../test-support.ts';
import { WalSync } from './wal-sync.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) removeDir(dir);
  dir = undefined;
});

/** A WalSync over a real file whose fsyncs complete when the test says. */
function controlled(): { wal: WalSync; complete: (error?: Error) => void; started: () => number } {
  dir = tempDir();
  const path = join(dir, 'log-wal');
  writeFileSync(path, 'frames');
  const pending: Array<(error: Error | null) => void> = [];
  const wal = new WalSync(path, (_fd, done) => pending.push(done));
  return { wal, started: () => pending.length, complete: (error) => pending.shift()!(error ?? null) };
}

/** Settles what is ready to settle (promise callbacks). */
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('WalSync', () => {
  it('acknowledges a commit only after an fsync that started after it', async () => {
    const { wal, complete, started } = controlled();
    const done: string[] = [];
    void wal.sync().then(() => done.push('first'));
    expect(started()).toBe(1);
    // Committed while the first fsync runs: that fsync may have started before its frames were written.
    void wal.sync().then(() => done.push('second'));
    void wal.sync().then(() => done.push('third'));
    expect(started()).toBe(1);
    complete();
    await turn();
    expect(done).toEqual(['first']);
    // The two waiting commits share the next fsync.
    expect(started()).toBe(1);
    complete();
    await turn();
    expect(done).toEqual(['first', 'second', 'third']);
    expect(wal.fsyncs).toBe(2);
    wal.close();
  });

  it('rejects the commits of a failed fsync', async () => {
    const { wal, complete } = controlled();
    const outcome = wal.sync().then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    complete(new Error('EIO'));
    expect(await outcome).toBe('EIO');
    wal.close();
  });

  it('flushes a real file', async () => {
    dir = tempDir();
    const path = join(dir, 'log-wal');
    writeFileSync(path, 'frames');
    const wal = new WalSync(path);
    await Promise.all([wal.sync(), wal.sync(), wal.sync()]);
    expect(wal.fsyncs).toBeGreaterThanOrEqual(1);
    expect(wal.fsyncs).toBeLessThanOrEqual(2);
    wal.close();
  });
});
