/**
 * Query aggregation, as Algolia's analytics does it: a shopper typing "lamp" into a search-as-you-type box sends
 * "l", "la", "lam" and "lamp", and the analytics should count one search, for "lamp" — not four, with "la" among
 * the top searches and the query suggestions built from them.
 *
 * Searches are grouped per user (the user token, else the IP) and index and analytics tags into sequences: a
 * search continues the user's open sequence when it comes within the window (30 s by default) of the sequence's
 * latest search and its query continues that one's — one is a prefix of the other (typing on, deleting back,
 * the same query refined or paged) or they are one edit apart (a typo fixed: a letter changed, added, dropped or
 * two swapped). It then replaces the sequence's search. Otherwise the open sequence is closed: its latest
 * search is the one counted, and the queryIDs of every search in it (clicks may come from any of them) are
 * attributed to it. An empty query never continues nor is continued (a landing or category page is its own
 * search).
 *
 * Sequences close when they time out (`closeDue`), when an event names one of their queryIDs (the shopper
 * clicked: the search is final), when an analytics read needs every search counted (`closeAll`), or past
 * `maxOpen` open sequences (oldest first). Pure bookkeeping: the caller counts what is closed.
 *
 * Rejected: deciding at read time from stored raw searches (every keystroke would be written, which is the
 * cost this saves); counting only queries that were clicked (searches without clicks are most searches).
 */
import type { SearchLogEntry } from '@vitrine/protocol';
import { tagsKey } from './days.ts';

export interface SearchSequence {
  /** The latest search of the sequence: the one counted when it closes. */
  entry: SearchLogEntry;
  /** When that search was made. */
  ts: number;
  /** Its normalised query. */
  query: string;
  /** queryIDs of every search of the sequence, in order. */
  queryIDs: string[];
}

export type CloseSequence = (sequence: SearchSequence) => void;

/** Default open sequences kept; past it the oldest close (memory stays bounded whatever the traffic). */
const MAX_OPEN = 100_000;

export class QuerySequences {
  /** Open sequences by user key, least recently continued first (Map order: each continuation re-inserts). */
  private readonly open = new Map<string, SearchSequence>();
  /** queryID → user key of the open sequence holding it. */
  private readonly holders = new Map<string, string>();

  constructor(
    private readonly windowMs: number,
    private readonly maxOpen = MAX_OPEN,
  ) {}

  get openCount(): number {
    return this.open.size;
  }

  /**
   * Takes one search made at `ts` by `user` (undefined: unknown, never aggregated) with normalised `query`;
   * closes, through `close`, the sequence it ends (if any) and the search itself when it cannot be continued.
   */
  offer(entry: SearchLogEntry, ts: number, query: string, user: string | undefined, close: CloseSequence): void {
    const queryIDs = entry.queryID === undefined ? [] : [entry.queryID];
    if (this.windowMs <= 0 || user === undefined) {
      close({ entry, ts, query, queryIDs });
      return;
    }
    // Tags as the rollups key them (deduplicated, sorted): the same tags in another order are the same page.
    const key = `${entry.index}\u0000${user}\u0000${tagsKey(entry.analyticsTags)}`;
    const current = this.open.get(key);
    if (current !== undefined) {
      this.open.delete(key);
      if (query !== '' && ts - current.ts <= this.windowMs && ts >= current.ts && continues(current.query, query)) {
        current.entry = entry;
        current.ts = ts;
        current.query = query;
        for (const id of queryIDs) {
          current.queryIDs.push(id);
          this.holders.set(id, key);
        }
        this.open.set(key, current);
        return;
      }
      this.closeSequence(current, close);
    }
    const sequence: SearchSequence = { entry, ts, query, queryIDs };
    if (query === '') {
      close(sequence);
      return;
    }
    this.open.set(key, sequence);
    for (const id of queryIDs) this.holders.set(id, key);
    if (this.open.size > this.maxOpen) this.closeOldest(close);
  }

  /** Closes the sequences whose latest search is older than the window at `now`. */
  closeDue(now: number, close: CloseSequence): void {
    for (const sequence of this.open.values()) {
      if (now - sequence.ts <= this.windowMs) break;
      this.closeOldest(close);
    }
  }

  /** Closes the open sequences holding any of these queryIDs (events about them are being attributed). */
  closeHolding(queryIDs: Iterable<string>, close: CloseSequence): void {
    for (const id of queryIDs) {
      const key = this.holders.get(id);
      if (key === undefined) continue;
      const sequence = this.open.get(key);
      if (sequence === undefined) continue;
      this.open.delete(key);
      this.closeSequence(sequence, close);
    }
  }

  closeAll(close: CloseSequence): void {
    while (this.open.size > 0) this.closeOldest(close);
  }

  private closeOldest(close: CloseSequence): void {
    const [key, sequence] = this.open.entries().next().value as [string, SearchSequence];
    this.open.delete(key);
    this.closeSequence(sequence, close);
  }

  private closeSequence(sequence: SearchSequence, close: CloseSequence): void {
    for (const id of sequence.queryIDs) this.holders.delete(id);
    close(sequence);
  }
}

/** Whether `next` continues `previous`: a prefix either way, or one edit apart. */
export function continues(previous: string, next: string): boolean {
  if (previous === '' || next === '') return false;
  return next.startsWith(previous) || previous.startsWith(next) || withinOneEdit(previous, next);
}

/** One substitution, insertion, deletion or swap of adjacent characters (or none) turns `a` into `b`. */
export function withinOneEdit(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  // What differs is a[start, endA) against b[start, endB).
  const differA = endA - start;
  const differB = endB - start;
  if (differA <= 1 && differB <= 1) return true;
  return differA === 2 && differB === 2 && a[start] === b[start + 1] && a[start + 1] === b[start];
}
