import { describe, expect, it } from 'vitest';
import { prespawnSearchWorkers, spawnSearchWorker, threadFlags } from './thread-spawn.ts';

const exited = (worker: { once(event: 'exit', listener: (code: number) => void): unknown }) => new Promise<number>((resolve) => worker.once('exit', resolve));

describe('search workers started early', () => {
  it('hands out the worker started early first, then new ones; each runs a search thread', async () => {
    prespawnSearchWorkers(1);
    const first = spawnSearchWorker();
    const second = spawnSearchWorker();
    // Thread ids grow with each worker created: the first handed out is the one started early.
    expect(first.threadId).toBeLessThan(second.threadId);
    for (const worker of [first, second]) {
      const ended = exited(worker);
      worker.postMessage({ type: 'stop' });
      expect(await ended).toBe(0);
    }
  }, 30_000);
});

describe('the flags a search thread keeps', () => {
  it('keeps the profiler and module conditions in every spelling, and nothing else', () => {
    const flags = ['--expose-gc', '--cpu-prof', '--cpu-prof-dir=out', '--conditions=source', '-C', 'custom', '--conditions', 'other', '--max-old-space-size=4096', '-C=last'];
    expect(threadFlags(flags)).toEqual(['--cpu-prof', '--cpu-prof-dir=out', '--conditions=source', '-C', 'custom', '--conditions', 'other', '-C=last']);
  });
});
