/**
 * A model build killed (`kill -9` of its process) loses nothing and counts nothing twice: a child process opens
 * insights over a log of 100,000 events and starts building (in its model thread, steps of 10,000 events, each
 * committed with the last id it read); once some steps are committed and not all, the process is killed. Opened
 * again, the next build goes on from the last committed step (not from scratch), and its aggregates and models
 * equal a build from scratch over the same log. Twice: the second time after more events and a user's deletion.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultInsightsOptions } from './deps.ts';
import { openInsights } from './index.ts';
import { MODELS_FILE, ModelStore } from './model-store.ts';
import { buildModels } from './models.ts';
import { removeDir, tempDir } from './test-support.ts';

const NOW = Date.UTC(2025, 5, 15, 12);
const options = { modelRebuildIntervalMs: 0, suggestionsRebuildIntervalMs: 0, checkpointIntervalMs: 0 };
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

/** Shoppers' sessions over 20 days, written as another process would (plain inserts). */
function writeEvents(dir: string, count: number, first: number): void {
  const db = new Database(join(dir, 'insights.sqlite'));
  const insert = db.prepare(`INSERT INTO events (ts, received_at, index_name, type, subtype, name, user_token, object_ids)
    VALUES (?, ?, 'products', ?, ?, 'Event', ?, ?)`);
  db.transaction(() => {
    for (let i = first; i < first + count; i++) {
      const session = Math.floor(i / 8);
      const ts = NOW - 20 * 86_400_000 + (session % 12_000) * 140_000 + (i % 8) * 30_000;
      const item = (session * 7919 + (i % 8) * 13) % 3000;
      const type = i % 20 === 19 ? 'conversion' : i % 3 === 0 ? 'click' : 'view';
      insert.run(ts, ts, type, type === 'conversion' ? 'purchase' : null, `user-${session % 9000}`, JSON.stringify([`p${item}`, `p${(item + 1) % 3000}`]));
    }
  })();
  db.close();
}

/** The child: insights opened on `dir`, whose first build starts at once (and is killed before it ends). */
function startChild(dir: string): { running: () => boolean; kill: () => Promise<void> } {
  const index = pathToFileURL(join(import.meta.dirname, 'index.ts')).href;
  const code = `
    const { openInsights } = await import(${JSON.stringify(index)});
    openInsights({
      dataDir: ${JSON.stringify(dir)}, now: () => ${NOW}, options: ${JSON.stringify(options)},
      search: () => ({ hits: [], nbHits: 0 }), getObjects: (_i, ids) => ids.map(() => null), listIndices: () => [], saveSuggestions: async () => {},
    });
    setInterval(() => {}, 1000);`;
  const script = join(dir, 'child.mjs');
  writeFileSync(script, code);
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', script], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    running: () => child.exitCode === null && child.signalCode === null,
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Where the committed aggregates are: the last event id they count, and a build from scratch under way. */
function committed(dir: string): { readTo: number; fill: string } {
  const file = join(dir, MODELS_FILE);
  if (!existsSync(file)) return { readTo: 0, fill: '' };
  try {
    const db = new Database(file, { readonly: true });
    try {
      const values = new Map((db.prepare('SELECT key, value FROM state').all() as Array<{ key: string; value: string }>).map((row) => [row.key, row.value]));
      return { readTo: Number(values.get('readTo') ?? 0), fill: values.get('fill') ?? '' };
    } finally {
      db.close();
    }
  } catch {
    // Created but not yet holding its tables.
    return { readTo: 0, fill: '' };
  }
}

/** Kills the child once a step of its build is committed; returns where the committed aggregates were then. */
async function killMidBuild(dir: string, lastId: number): Promise<{ readTo: number; fill: string }> {
  const { running, kill } = startChild(dir);
  const start = JSON.stringify(committed(dir));
  // Polled until a step of this build is committed, then killed at once (the build has more steps to go).
  while (JSON.stringify(committed(dir)) === start && running()) await new Promise((resolve) => setTimeout(resolve, 5));
  await kill();
  const after = committed(dir);
  expect(JSON.stringify(after)).not.toBe(start);
  // Killed mid-way: a build from scratch under way, or events past the last step.
  expect(after.fill !== '' || after.readTo < lastId).toBe(true);
  return after;
}

function groups(store: ModelStore): unknown[] {
  return store.db.prepare('SELECT day, index_name, user, state FROM user_days ORDER BY day, index_name, user').all();
}

/** Opened again in this process: the next build goes on from the last step committed, and equals one from scratch. */
async function checkAfterKill(dir: string, { readTo, fill }: { readTo: number; fill: string }): Promise<void> {
  // What the build still has to read: past the last step committed (in time order for a build from scratch).
  const log = new Database(join(dir, 'insights.sqlite'), { readonly: true });
  const count = (sql: string, ...params: number[]) => log.prepare(`SELECT count(*) FROM events WHERE ${sql}`).pluck().get(...params) as number;
  const at = fill === '' ? undefined : (JSON.parse(fill) as { to: number; ts: number; id: number });
  const unread = at ? count('id <= ? AND (ts > ? OR (ts = ? AND id > ?))', at.to, at.ts, at.ts, at.id) + count('id > ?', at.to) : count('id > ?', readTo);
  log.close();
  const insights = openInsights({
    dataDir: dir, now: () => NOW, options,
    search: () => ({ hits: [], nbHits: 0 }) as never, getObjects: (_index, ids) => ids.map(() => null), listIndices: () => [], saveSuggestions: async () => {},
  });
  const summary = await insights.rebuildModels();
  await insights.stop();
  expect(summary.full).toBe(false);
  // Those events, once (and the days of the deleted user's events, read again).
  expect(summary.eventsScanned).toBeGreaterThanOrEqual(unread);
  expect(summary.eventsScanned).toBeLessThan(unread + 2000);

  const db = new Database(join(dir, 'insights.sqlite'));
  const built = new ModelStore(join(dir, MODELS_FILE));
  const scratch = new ModelStore(':memory:');
  try {
    const fromScratch = buildModels(db, scratch, NOW, { ...defaultInsightsOptions, ...options }, { full: true }).packed;
    expect(groups(built)).toEqual(groups(scratch));
    expect(summary.eventsRead).toBe(fromScratch.eventsRead);
    expect(summary.relatedItems).toBe(fromScratch.indexes.reduce((n, [, index]) => n + index.coInterest.ids.ends.length, 0));
  } finally {
    built.close();
    scratch.close();
    db.close();
  }
}

describe('a model build killed mid-way', () => {
  it('loses nothing and counts nothing twice: the next build goes on from its last committed step', { timeout: 300_000 }, async () => {
    const dir = tempDir('vitrine-models-kill-');
    dirs.push(dir);
    // Created as insights creates it, then filled.
    const first = openInsights({
      dataDir: dir, now: () => NOW, options,
      search: () => ({ hits: [], nbHits: 0 }) as never, getObjects: (_index, ids) => ids.map(() => null), listIndices: () => [], saveSuggestions: async () => {},
    });
    first.close();
    writeEvents(dir, 100_000, 0);
    await checkAfterKill(dir, await killMidBuild(dir, 100_000));

    // More events, and a user's events deleted (changes the next build must take out of what it counted).
    writeEvents(dir, 60_000, 100_000);
    const db = new Database(join(dir, 'insights.sqlite'));
    expect(db.prepare("DELETE FROM events WHERE user_token = 'user-17'").run().changes).toBeGreaterThan(0);
    expect(db.prepare('SELECT count(*) FROM model_changes').pluck().get()).toBeGreaterThan(0);
    db.close();
    await checkAfterKill(dir, await killMidBuild(dir, 160_000));
  });
});
