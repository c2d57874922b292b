/**
 * A snapshot gives way to searches: while searches wait, `writeSnapshotFiles` writes nothing between two slices
 * for up to `giveWayMs` (`SNAPSHOT_GIVE_WAY_MS` by default), and it still ends when they never stop waiting.
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateProducts } from '@vitrine/demo';
import { tempDir } from '../test-support.ts';
import { IndexRegistry } from './registry.ts';
import { writeSnapshotFiles } from './snapshot.ts';

const dir = tempDir('vitrine-give-way-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** An index whose snapshot takes many slices to write: demo products with long descriptions. */
function largeRegistry(): IndexRegistry {
  const registry = new IndexRegistry();
  const entry = registry.ensure('products', new Date(0).toISOString());
  const products = [...generateProducts(20_000)].map((product) => ({ ...product, description: `${product.description} `.repeat(8) }));
  entry.engine!.saveObjects(products);
  return registry;
}

describe('a snapshot written while searches wait', () => {
  const registry = largeRegistry();

  it('writes nothing while searches wait, then ends once they are answered', async () => {
    const folder = join(dir, 'waiting');
    mkdirSync(folder);
    let waiting = true;
    let asked = 0;
    let finished = false;
    // Giving way for up to a minute per slice here: the observation below cannot outlast it on a slow machine.
    const searchesWaiting = () => (asked++, waiting);
    const written = writeSnapshotFiles(registry, 1, folder, () => undefined, { searchesWaiting, giveWayMs: 60_000 }).then(() => (finished = true));
    const file = join(folder, 'index-0.bin');
    // Asked once a slice is written: from then on, nothing more is written while searches wait.
    while (asked === 0 && !finished) await nextTurn();
    expect(finished, "the snapshot takes more than one slice").toBe(false);
    const first = statSync(file).size;
    const since = performance.now();
    let turns = 0;
    // A tenth of a second and twenty turns of the loop, whichever is later: a busy machine may give few turns.
    while (performance.now() - since < 100 || turns < 20) {
      await nextTurn();
      turns++;
    }
    expect(statSync(file).size).toBe(first);
    expect(finished).toBe(false);
    waiting = false;
    await written;
    expect(statSync(file).size).toBeGreaterThan(first);
  }, 60_000);

  it('still ends when searches never stop waiting', async () => {
    const folder = join(dir, 'busy');
    mkdirSync(folder);
    await writeSnapshotFiles(registry, 1, folder, () => undefined, { searchesWaiting: () => true });
    expect(statSync(join(folder, 'index-0.bin')).size).toBeGreaterThan(1 << 20);
  }, 60_000);
});
