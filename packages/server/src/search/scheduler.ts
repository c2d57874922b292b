/**
 * Shares a thread's search time between clients: a search thread's (`thread.ts`), or the main thread's when no
 * search thread is ready. Calls are answered in steps (`CallInSteps`); clients (by IP address) take turns, each
 * given a slice of its oldest call, so a client sending huge or many calls delays the others by about a slice
 * per turn, never by a whole call, and its own calls wait behind each other rather than beside everyone's. The
 * event loop turns between slices: messages (writes to apply, new calls) and, on the main thread, HTTP go on.
 *
 * A call small enough to finish within its slice (an InstantSearch multi-query) is answered in the turn it
 * arrives in, as if there were no scheduler.
 *
 * Why per client and not per call: an attacker's concurrency would otherwise buy it a slice per call in
 * flight, and every call in flight would hold its partial response in memory at once.
 */
import type { IndexRegistry } from '../storage/registry.ts';
import { CallInSteps, type SearchAnswer, type SearchCall } from './queries.ts';

/**
 * Time a turn of the scheduler works before the event loop turns again (a step may overrun it by one query's
 * matching or a few hits). Short enough that a client behind a busy one waits a few milliseconds; long enough
 * that the turns themselves cost nothing measurable.
 */
export const SEARCH_SLICE_MS = 5;

/** Told of a call's outcome: an error (an `ApiError` for a caller's mistake) or its answer. */
export type CallDone = (error: unknown, answer?: SearchAnswer) => void;

interface Job {
  call: SearchCall;
  done: CallDone;
  /** Given each piece of the response as a slice that did not finish the call ends; null: kept in `pieces`. */
  piece: ((bytes: Uint8Array) => void) | null;
  steps: CallInSteps | null;
  pieces: Uint8Array[];
  /** Some of the response went to `piece` already: the rest goes as bytes too. */
  handedOn: boolean;
}

export class SearchScheduler {
  /** Clients with calls waiting, in turn order (a Map keeps insertion order: a client served goes to the end). */
  private readonly clients = new Map<string, Job[]>();
  private scheduled = false;
  private working = false;

  /**
   * `registry`: where searches run (a search thread replaces its registry once, when it starts). `onIdle`: called
   * whenever the last call waiting is answered.
   */
  constructor(
    private readonly registry: () => IndexRegistry,
    private readonly onIdle: () => void = () => {},
  ) {}

  /** Calls waiting or under way. */
  get pending(): number {
    let count = 0;
    for (const jobs of this.clients.values()) count += jobs.length;
    return count;
  }

  /**
   * Answers the call when its turn comes: at once (a slice of it) when its client has nothing under way, else
   * after the client's earlier calls. A response built over several slices comes in pieces: given to `piece`
   * as each slice ends (a search thread posts them as they come, rather than all at once), or else kept and
   * answered as the body's pieces.
   */
  submit(call: SearchCall, done: CallDone, piece: ((bytes: Uint8Array) => void) | null = null): void {
    const job: Job = { call, done, piece, steps: null, pieces: [], handedOn: false };
    const jobs = this.clients.get(call.client);
    if (jobs !== undefined) {
      jobs.push(job);
      return;
    }
    const queue = [job];
    this.clients.set(call.client, queue);
    if (this.working) return;
    // A client that was idle goes first, rather than behind the clients served meanwhile: a shopper's search
    // waits for no one's slice, whatever others keep the thread busy with.
    this.working = true;
    try {
      this.serve(call.client, queue, performance.now() + SEARCH_SLICE_MS);
    } finally {
      this.working = false;
    }
    this.schedule();
  }

  run(call: SearchCall): Promise<SearchAnswer> {
    return new Promise((resolve, reject) => this.submit(call, (error, answer) => (error === undefined ? resolve(answer!) : reject(error))));
  }

  /** Serves clients in order, a slice each, until the turn's time is spent; then lets the event loop turn. */
  private readonly turn = (): void => {
    this.scheduled = false;
    this.working = true;
    const end = performance.now() + SEARCH_SLICE_MS;
    try {
      // A client served goes to the back of the line: deleting while iterating a Map is safe, re-adding appends.
      for (const [client, jobs] of this.clients) {
        this.serve(client, jobs, end);
        if (performance.now() >= end) break;
      }
    } finally {
      this.working = false;
    }
    this.schedule();
  };

  private schedule(): void {
    if (this.clients.size === 0) return this.onIdle();
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.turn);
  }

  /** Works on the client's oldest call until `end` (or a piece is ready), then sends the client to the back. */
  private serve(client: string, jobs: Job[], end: number): void {
    const job = jobs[0];
    let answer: SearchAnswer | undefined;
    let failure: unknown;
    try {
      const steps = (job.steps ??= new CallInSteps(this.registry(), job.call));
      if (steps.work(end)) answer = answerOf(job, steps);
      else if (job.piece === null) job.pieces.push(steps.takeBytes());
      else {
        job.handedOn = true;
        job.piece(steps.takeBytes());
      }
    } catch (error) {
      failure = error ?? new Error('search failed');
    }
    const finished = answer !== undefined || failure !== undefined;
    this.clients.delete(client);
    if (finished) jobs.shift();
    if (jobs.length > 0) this.clients.set(client, jobs);
    if (failure !== undefined) job.done(failure);
    else if (answer !== undefined) job.done(undefined, answer);
  }
}

/** The answer of a finished call: its text, or its last piece after those kept, if any, or given to `piece`. */
function answerOf(job: Job, steps: CallInSteps): SearchAnswer {
  const body = job.pieces.length > 0 ? [...job.pieces, steps.takeBytes()] : job.handedOn ? [steps.takeBytes()] : steps.takeText();
  return { body, bytes: steps.bytes, summaries: steps.summaries };
}
