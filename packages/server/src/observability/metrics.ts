/**
 * The metrics of one app, in Prometheus' text format through `prom-client`, on a registry of the app's own (never
 * prom-client's global one: tests build many apps in one process, and each must count only its own requests).
 *
 * Two kinds. Requests and searches are counted as they are answered (a cached counter and histogram per route,
 * method and status: a map lookup per request). Everything else is read when scraped, by `collect` callbacks,
 * from state the main thread holds anyway: record counts (the search threads report them after applying
 * writes), tasks waiting, the log since the snapshot, the threads' queue. A scrape reads no record and sends
 * nothing to a search thread, so it never waits behind searches nor holds them up.
 *
 * The process's own metrics (memory, CPU, event-loop lag, garbage collection: prom-client's defaults, under
 * their usual names so stock dashboards read them) are one per process, not per app: see `process-metrics.ts`.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { SearchThreads } from '../search/threads.ts';
import type { IndexEntry } from '../storage/registry.ts';
import { SNAPSHOTS_DIR } from '../storage/snapshot.ts';
import type { Store } from '../storage/store.ts';
import { processMetrics } from './process-metrics.ts';

/** What the gauges read when scraped. */
export interface MetricSources {
  store: Store;
  /** The search threads, once the app has created them (none: searches on the main thread). */
  threads: () => SearchThreads | undefined;
  /** What `/1/isalive` says. */
  alive: () => boolean;
}

/** HTTP time, from 1 ms (a cached search) to 10 s (a large import's batch). */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A search call's time, from half a millisecond to seconds (a call waiting behind an import). */
const SEARCH_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

type RequestLabels = 'method' | 'route' | 'status_code';

export class AppMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<RequestLabels>;
  private readonly requestSeconds: Histogram<RequestLabels>;
  private readonly searchSeconds: Histogram;
  /** The counter and histogram of each method, route and status seen, so a request hashes no label object. */
  private readonly perRequestKind = new Map<string, { count: Counter.Internal; seconds: Histogram.Internal<RequestLabels> }>();
  /** Gauges that exist only once there is something to measure (a snapshot, search threads). */
  private snapshotGauge = false;
  private threadGauges = false;
  /** The current snapshot's position and the time its manifest was written (read once per snapshot). */
  private snapshotTime: { seq: number; ms: number } | null = null;

  constructor(private readonly sources: MetricSources) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'vitrine_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern ((unmatched): no route) and status code.',
      labelNames: ['method', 'route', 'status_code'],
      registers,
    });
    this.requestSeconds = new Histogram({
      name: 'vitrine_http_request_duration_seconds',
      help: 'Time from a request received to its answer sent, by method, route pattern and status code.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.searchSeconds = new Histogram({
      name: 'vitrine_search_duration_seconds',
      help: 'Time of each search call (a multi-query counts once) from its hand-over to a search thread (or the main thread) to its answer, queueing there included, HTTP excluded.',
      buckets: SEARCH_BUCKETS,
      registers,
    });
    this.registerStateGauges();
  }

  /** The content type of `exposition()`: Prometheus' text format 0.0.4. */
  get contentType(): string {
    return this.registry.contentType;
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let kind = this.perRequestKind.get(key);
    if (kind === undefined) {
      const labels = { method, route, status_code: status };
      kind = { count: this.requests.labels(labels), seconds: this.requestSeconds.labels(labels) };
      this.perRequestKind.set(key, kind);
    }
    kind.count.inc();
    kind.seconds.observe(seconds);
  }

  observeSearch(seconds: number): void {
    this.searchSeconds.observe(seconds);
  }

  /** Every metric of the app, then the process's, as text. */
  async exposition(): Promise<string> {
    this.registerLateGauges();
    return (await this.registry.metrics()) + (await processMetrics().metrics());
  }

  private registerStateGauges(): void {
    const { store, alive } = this.sources;
    const registers = [this.registry];
    new Gauge({
      name: 'vitrine_ready',
      help: '1 when /1/isalive answers 200 (indexes loaded, a search thread ready), else 0.',
      registers,
      collect() {
        this.set(alive() ? 1 : 0);
      },
    });
    const perIndex = (name: string, help: string, value: (entry: IndexEntry) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['index'],
        registers,
        collect() {
          // Dropped indexes must not linger: the whole set is read again at each scrape.
          this.reset();
          for (const entry of store.registry.all()) this.set({ index: entry.name }, value(entry));
        },
      });
    perIndex('vitrine_index_records', "Records in the index (a replica: its primary's).", (entry) => store.registry.sizeOf(entry));
    perIndex('vitrine_index_pending_tasks', 'Writes to the index logged and not yet applied (not yet visible to search).', (entry) => store.pendingTasks(entry.name));
    new Gauge({
      name: 'vitrine_pending_tasks',
      help: 'Writes accepted and not yet applied, every index (past maxPendingTasks, 1000 by default, writes answer 429).',
      registers,
      collect() {
        this.set(store.logStats().pendingTasks);
      },
    });
    const sinceSnapshot = (name: string, help: string, field: 'ops' | 'records' | 'bytes') =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(store.logStats().sinceSnapshot[field]);
        },
      });
    sinceSnapshot('vitrine_oplog_operations', 'Operations in the log since the last snapshot (replayed after a crash).', 'ops');
    sinceSnapshot('vitrine_oplog_records', 'Records the log since the last snapshot writes, as a replay weighs them (a snapshot is due at 25,000).', 'records');
    sinceSnapshot('vitrine_oplog_bytes', 'Bytes of JSON in the log since the last snapshot (a snapshot is due at 16 MB; past twice that, writes wait).', 'bytes');
  }

  /** The snapshot's age once there is a snapshot, the threads' gauges once there are threads: absent before. */
  private registerLateGauges(): void {
    const registers = [this.registry];
    if (!this.snapshotGauge && this.sources.store.logStats().snapshotSeq > 0) {
      this.snapshotGauge = true;
      const age = () => this.snapshotAgeSeconds();
      new Gauge({
        name: 'vitrine_snapshot_age_seconds',
        help: 'Seconds since the current snapshot was written (it grows on a server that takes no writes: read it with the log\'s size).',
        registers,
        collect() {
          this.set(age());
        },
      });
    }
    const threads = this.sources.threads;
    if (!this.threadGauges && threads() !== undefined) {
      this.threadGauges = true;
      new Gauge({
        name: 'vitrine_search_threads_ready',
        help: 'Search threads ready to answer (0 while one starts or restarts: reads of records wait meanwhile).',
        registers,
        collect() {
          this.set(threads()?.readyCount ?? 0);
        },
      });
      new Gauge({
        name: 'vitrine_search_threads_queued_calls',
        help: 'Search calls and reads of records sent to the search threads and not answered yet (queued or running).',
        registers,
        collect() {
          this.set(threads()?.callsInFlight ?? 0);
        },
      });
    }
  }

  /** From the snapshot manifest's time on disk, so right after a restart too: one `stat` per new snapshot. */
  private snapshotAgeSeconds(): number {
    const { store } = this.sources;
    const seq = store.logStats().snapshotSeq;
    if (this.snapshotTime?.seq !== seq) {
      try {
        this.snapshotTime = { seq, ms: statSync(join(store.dataDir, SNAPSHOTS_DIR, String(seq), 'manifest.json')).mtimeMs };
      } catch {
        // Pruned since its position was read: a newer snapshot has just become current.
        return 0;
      }
    }
    return Math.max(0, (Date.now() - this.snapshotTime.ms) / 1000);
  }
}
