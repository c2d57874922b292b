/**
 * Re-ranking's impressions and clicks by position (`position_shown_daily`): where each tracked search showed its
 * hits (written with the search log's rollups) and where each attributed click landed (written by the event log
 * as it attributes the click). Only tracked searches (`clickAnalytics`) count: a click can only be attributed to
 * one of those, so only their impressions predict clicks.
 */
import type { SearchLogEntry } from '@vitrine/protocol';

/** Positions counted (1-based, over the whole result list): impressions and clicks past it are left out. */
export const POSITIONS_COUNTED = 100;

export const UPSERT_SHOWN = `INSERT INTO position_shown_daily (index_name, day, query, object_id, position, shown) VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT (index_name, day, query, object_id, position) DO UPDATE SET shown = shown + excluded.shown`;
export const BUMP_SHOWN_CLICK = `INSERT INTO position_shown_daily (index_name, day, query, object_id, position, clicks) VALUES (?, ?, ?, ?, ?, 1)
  ON CONFLICT (index_name, day, query, object_id, position) DO UPDATE SET clicks = clicks + 1`;

/** Counts a tracked search's impressions into `shown`, keyed by objectID and position (joined by NUL). */
export function addShown(shown: Map<string, number>, entry: SearchLogEntry): void {
  const offset = typeof entry.hitsOffset === 'number' && entry.hitsOffset >= 0 ? entry.hitsOffset : 0;
  const ids = entry.moreObjectIDs === undefined ? entry.objectIDs ?? [] : [...(entry.objectIDs ?? []), ...entry.moreObjectIDs];
  for (let i = 0; i < ids.length && offset + i < POSITIONS_COUNTED; i++) {
    if (typeof ids[i] !== 'string') continue;
    const key = `${ids[i]}\u0000${offset + i + 1}`;
    shown.set(key, (shown.get(key) ?? 0) + 1);
  }
}

/** A key of `addShown`'s map back as objectID and position. */
export function shownKey(key: string): [objectID: string, position: number] {
  const cut = key.lastIndexOf('\u0000');
  return [key.slice(0, cut), Number(key.slice(cut + 1))];
}

/** Whether a click at this position (1-based, as events carry it) is counted. */
export function countedPosition(position: unknown): position is number {
  return typeof position === 'number' && Number.isInteger(position) && position >= 1 && position <= POSITIONS_COUNTED;
}
