/**
 * Profiles from events (`derive.ts`), over a real event log and real aggregates built as the model thread
 * builds them: the stated formula (event score × facet score × 2^(−age / 7 days), scaled to 100), events the
 * strategy does not list, `filters` events, the two passes around missing facet values, and an incremental
 * build giving the same profiles as a build from scratch.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PersonalizationStrategy } from '@vitrine/protocol';
import { openInsightsDb } from '../db.ts';
import { DAY_MS, defaultInsightsOptions } from '../deps.ts';
import { keptFromDay } from '../model-changes.ts';
import { MODELS_FILE } from '../model-store.ts';
import { buildHere, removeDir, tempDir } from '../test-support.ts';
import { deriveProfiles } from './derive.ts';
import type { ProfileBuildRequest } from './derive.ts';
import { ProfileReader, ProfileStore } from './profile-store.ts';

const NOW = Date.UTC(2025, 5, 15, 12);
const options = { ...defaultInsightsOptions, modelRebuildIntervalMs: 0 };
const STRATEGY: PersonalizationStrategy = {
  eventsScoring: [{ eventName: 'Clicked', eventType: 'click', score: 20 }, { eventName: 'Bought', eventType: 'conversion', score: 80 }],
  facetsScoring: [{ facetName: 'brand', score: 100 }, { facetName: 'color', score: 50 }],
  personalizationImpact: 60,
};
const CATALOGUE: Record<string, { brand: string; color: string[] }> = {
  a: { brand: 'Acme', color: ['red'] },
  b: { brand: 'Bolt', color: ['blue', 'red'] },
};
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

interface Event { daysAgo: number; type: string; name: string; user: string; objectIDs?: string[]; filters?: string[] }

function folder(events: Event[]): { dir: string; db: ReturnType<typeof openInsightsDb> } {
  const dir = tempDir();
  dirs.push(dir);
  const db = openInsightsDb(dir);
  const insert = db.prepare("INSERT INTO events (ts, received_at, index_name, type, subtype, name, user_token, object_ids, filters) VALUES (?, ?, 'shop', ?, ?, ?, ?, ?, ?)");
  events.forEach((e, i) => {
    const ts = NOW - e.daysAgo * DAY_MS + i;
    insert.run(ts, ts, e.type, e.type === 'conversion' ? 'purchase' : null, e.name, e.user, e.objectIDs ? JSON.stringify(e.objectIDs) : null, e.filters ? JSON.stringify(e.filters) : null);
  });
  return { dir, db };
}

/** Both passes, as the main thread runs them: the facet values the first asks for fetched from `CATALOGUE`. */
function derive(dir: string): { missing: number; reader: ProfileReader } {
  const models = new Database(join(dir, MODELS_FILE), { readonly: true });
  const store = new ProfileStore(join(dir, 'profiles.sqlite'));
  try {
    const request: ProfileBuildRequest = { now: NOW, strategy: STRATEGY, fromDay: keptFromDay(NOW, options), final: false };
    const first = deriveProfiles(models, store, request);
    const missing = first.missing ?? [];
    if (missing.length > 0) {
      const facets = missing.map(([index, id]): [string, string, Record<string, string[]> | null] => [index, id, CATALOGUE[id] ? { brand: [CATALOGUE[id].brand], color: CATALOGUE[id].color } : null]);
      expect(deriveProfiles(models, store, { ...request, facets, final: true }).missing).toBeUndefined();
    }
    return { missing: missing.length, reader: new ProfileReader(join(dir, 'profiles.sqlite')) };
  } finally {
    models.close();
    store.close();
  }
}

describe('profiles', () => {
  it('follow the stated formula: event score × facet score, halved every 7 days, scaled to the strongest', () => {
    const { dir, db } = folder([
      { daysAgo: 0, type: 'click', name: 'Clicked', user: 'u', objectIDs: ['a'] },
      { daysAgo: 7, type: 'conversion', name: 'Bought', user: 'u', objectIDs: ['b'] },
      // Not in the strategy, however many.
      { daysAgo: 0, type: 'view', name: 'Clicked', user: 'u', objectIDs: ['b', 'b', 'b'] },
      { daysAgo: 0, type: 'click', name: 'Other', user: 'u', objectIDs: ['b'] },
      // A filter event names the value itself; an object the index does not have counts for nothing.
      { daysAgo: 0, type: 'click', name: 'Clicked', user: 'u', filters: ['brand:Cove'], objectIDs: undefined },
      { daysAgo: 0, type: 'click', name: 'Clicked', user: 'u', objectIDs: ['gone'] },
    ]);
    buildHere(db, join(dir, MODELS_FILE), NOW, options);
    const { missing, reader } = derive(dir);
    expect(missing).toBe(3);
    // Acme: 20 × 100 = 2000; Bolt: 80 × 100 / 2 = 4000; Cove: 20 × 100 = 2000; red: 20 × 50 + 80 × 50 / 2 = 3000;
    // blue: 80 × 50 / 2 = 2000. Scaled to Bolt's 4000.
    const profile = reader.profile('u')!;
    expect(profile.scores).toEqual({ brand: { Bolt: 100, Acme: 50, Cove: 50 }, color: { red: 75, blue: 50 } });
    expect(profile.lastEventAt).toBe(NOW + 5);
    expect(reader.profile('nobody')).toBeUndefined();
    reader.close();
    db.close();
  });

  it('need no fetch once the facet values are cached, and an incremental build gives what one from scratch gives', () => {
    const events: Event[] = [];
    for (let i = 0; i < 60; i++) events.push({ daysAgo: i % 20, type: i % 3 === 0 ? 'conversion' : 'click', name: i % 3 === 0 ? 'Bought' : 'Clicked', user: `u${i % 7}`, objectIDs: [i % 2 === 0 ? 'a' : 'b'] });
    const { dir, db } = folder(events.slice(0, 30));
    buildHere(db, join(dir, MODELS_FILE), NOW, options);
    derive(dir).reader.close();
    const insert = db.prepare("INSERT INTO events (ts, received_at, index_name, type, subtype, name, user_token, object_ids) VALUES (?, ?, 'shop', ?, ?, ?, ?, ?)");
    events.slice(30).forEach((e, i) => insert.run(NOW - e.daysAgo * DAY_MS + 100 + i, NOW, e.type, e.type === 'conversion' ? 'purchase' : null, e.name, e.user, JSON.stringify(e.objectIDs)));
    buildHere(db, join(dir, MODELS_FILE), NOW, options);
    const incremental = derive(dir);
    expect(incremental.missing).toBe(0);
    const users = Array.from({ length: 7 }, (_, i) => `u${i}`);
    const byIncremental = users.map((u) => incremental.reader.profile(u)?.scores);
    incremental.reader.close();
    buildHere(db, join(dir, MODELS_FILE), NOW, options, { full: true });
    const scratch = derive(dir);
    expect(users.map((u) => scratch.reader.profile(u)?.scores)).toEqual(byIncremental);
    expect(byIncremental.every((scores) => scores !== undefined)).toBe(true);
    scratch.reader.close();
    db.close();
  });
});
