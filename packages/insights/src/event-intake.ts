/**
 * `POST /1/events` batches wait in line and go through in steps, one a turn of the event loop, so that requests
 * are answered between them. A full batch costs the main thread 30–40 ms (validating and committing 1,000
 * events): a flood's batches handled together would hold a shopper's search for hundreds of milliseconds.
 *
 * Each step validates batches from the front of the line for at most `VALIDATE_MS`, lets the host admit each
 * batch once valid (`EventAdmission`: its rate limits), then commits the admitted batches, up to
 * `COMMIT_EVENTS` events (at least one batch), in one transaction: small batches from many shoppers still share
 * one fsync. A batch is acknowledged once committed. Past `MAX_WAITING_EVENTS` events in line, a batch is
 * refused at once (429): the caps on events (the host's) keep a storefront far below that.
 */
import type { EventLog } from './event-log.ts';
import { InsightsError } from './errors.ts';
import type { StoredEvent, TimeWindow } from './validate.ts';
import { batchOf, validateEvent } from './validate.ts';

const VALIDATE_MS = 3;
const COMMIT_EVENTS = 1000;
const MAX_WAITING_EVENTS = 20_000;

/** Called with a valid batch before it is committed; throws to refuse it (nothing stored). */
export type EventAdmission = (events: ReadonlyArray<Pick<StoredEvent, 'userToken' | 'authToken' | 'index'>>) => void;

interface Waiting {
  raw: unknown[];
  window: TimeWindow;
  admit: EventAdmission | undefined;
  events: StoredEvent[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class EventIntake {
  /** Batches being validated, oldest first. */
  private readonly line: Waiting[] = [];
  /** Valid, admitted batches waiting for their commit. */
  private readonly admitted: Waiting[] = [];
  private waitingEvents = 0;
  private scheduled = false;

  constructor(private readonly eventLog: EventLog) {}

  /** Resolves once the batch is committed; throws (or rejects) with a 422 if invalid, or what `admit` throws. */
  push(body: unknown, window: TimeWindow, admit?: EventAdmission): Promise<void> {
    const raw = batchOf(body);
    if (this.waitingEvents + raw.length > MAX_WAITING_EVENTS) {
      throw new InsightsError('TOO_MANY_EVENTS', 429, 'Too many events waiting to be stored: retry in a moment');
    }
    this.waitingEvents += raw.length;
    return new Promise((resolve, reject) => {
      this.line.push({ raw, window, admit, events: [], resolve, reject });
      this.schedule();
    });
  }

  /** Validates and commits everything in line at once (the host is closing). */
  drain(): void {
    while (this.line.length > 0 || this.admitted.length > 0) this.step(Infinity);
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.step(VALIDATE_MS);
      if (this.line.length > 0 || this.admitted.length > 0) this.schedule();
    });
  }

  private step(validateMs: number): void {
    const until = performance.now() + validateMs;
    while (this.line.length > 0 && performance.now() < until) {
      const batch = this.line[0];
      try {
        batch.events.push(validateEvent(batch.raw[batch.events.length], batch.events.length, batch.window));
        if (batch.events.length < batch.raw.length) continue;
        this.line.shift();
        batch.admit?.(batch.events);
        this.admitted.push(batch);
      } catch (error) {
        if (this.line[0] === batch) this.line.shift();
        this.waitingEvents -= batch.raw.length;
        batch.reject(error);
      }
    }
    this.commit();
  }

  private commit(): void {
    if (this.admitted.length === 0) return;
    let events = this.admitted[0].events.length;
    let count = 1;
    while (count < this.admitted.length && events + this.admitted[count].events.length <= COMMIT_EVENTS) events += this.admitted[count++].events.length;
    const batches = this.admitted.splice(0, count);
    this.waitingEvents -= events;
    try {
      this.eventLog.commit(batches.map((batch) => ({ events: batch.events, receivedAt: batch.window.now })));
    } catch (error) {
      for (const batch of batches) batch.reject(error);
      return;
    }
    for (const batch of batches) batch.resolve();
  }
}
