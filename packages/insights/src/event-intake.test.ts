/**
 * Event batches arriving together go through in steps: the main thread is never held for all of them at once,
 * each batch is acknowledged once committed (or refused whole), and a line past its bound refuses at once (429).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { InsightsEvent } from '@vitrine/protocol';
import { openInsights } from './index.ts';
import type { Insights } from './index.ts';
import { removeDir, tempDir, watchStalls } from './test-support.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

function open(): Insights {
  const dir = tempDir();
  dirs.push(dir);
  return openInsights({
    dataDir: dir,
    options: { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0 },
    search: () => ({ hits: [], nbHits: 0 }) as never,
    getObjects: (_index, ids) => ids.map(() => null),
    listIndices: () => [],
    saveSuggestions: async () => {},
  });
}

const batch = (name: string, count = 1000): { events: InsightsEvent[] } => ({
  events: Array.from({ length: count }, (_, i) => ({ eventType: 'click', eventName: name, index: 'products', userToken: `user-${i % 100}`, objectIDs: [`p${i}`, `q${i}`] })),
});

describe('event intake', () => {
  it('stores batches arriving together in steps, a turn of the event loop apart', async () => {
    const insights = open();
    await insights.recordEvents(batch('warm-up', 10));
    const stalls = watchStalls();
    const started = performance.now();
    const results = await Promise.allSettled(Array.from({ length: 16 }, (_, i) => insights.recordEvents(i === 5 ? { events: [{ eventType: 'oops' }] } : batch(`b${i}`))));
    const took = performance.now() - started;
    const longestStall = stalls.stop();

    expect(results.map((result) => result.status)).toEqual(Array.from({ length: 16 }, (_, i) => (i === 5 ? 'rejected' : 'fulfilled')));
    expect(results[5]).toMatchObject({ reason: { statusCode: 422, message: expect.stringMatching(/^Invalid event at position 0/) } });
    expect(insights.storedEvents()).toBe(15_010);
    // Fifteen full batches are hundreds of milliseconds of work (validating and committing 15,000 events); done
    // at once, the longest stall is all of it.
    expect(took).toBeGreaterThan(150);
    expect(longestStall).toBeLessThan(Math.min(100, took / 2));
    await insights.stop();
  });

  it('refuses a batch at once when too many events wait to be stored', async () => {
    const insights = open();
    const waiting = Array.from({ length: 20 }, (_, i) => insights.recordEvents(batch(`w${i}`)));
    await expect(insights.recordEvents(batch('one-too-many', 1))).rejects.toMatchObject({ statusCode: 429 });
    await Promise.all(waiting);
    await insights.recordEvents(batch('after', 1));
    expect(insights.storedEvents()).toBe(20_001);
    await insights.stop();
  });
});
