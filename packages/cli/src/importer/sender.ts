import { apiStatus, CliError, messageOf } from '../errors.ts';
import type { ApiClient } from './client.ts';
import type { Position } from './sources.ts';

export interface PendingRecord {
  record: Record<string, unknown>;
  position: Position;
}

export interface SenderOptions {
  client: ApiClient;
  indexName: string;
  batchSize: number;
  /** Batches in flight at once: two keeps the server busy while the next batch is being read. */
  concurrency?: number;
  /** A record the server refused (4xx), with its reason. */
  onRejected: (item: PendingRecord, reason: string) => void;
  /** Records the server accepted, after each batch. */
  onAccepted: (count: number) => void;
}

const MAX_BUSY_RETRIES = 8;

/**
 * Whose failure stopped the import: an answer of the server (it has a status), the connection to it (the
 * client's RetryError: no host answered), or the importer itself, which is never reported as the server's.
 */
export function describeFailure(error: unknown): string {
  const status = apiStatus(error);
  if (status !== undefined) return `The server refused the import (HTTP ${status}): ${messageOf(error)}`;
  if (error instanceof Error && error.name === 'RetryError') return `The server could not be reached during the import: ${messageOf(error)}`;
  return `The import stopped on an error of the importer, not of the server: ${messageOf(error)}`;
}

/**
 * Sends records in batches (`POST /1/indexes/{index}/batch`). A batch the server refuses as a whole (the server
 * validates a batch before applying any of it) is split in halves and resent, down to single records, so one bad
 * record costs about log2(batch size) extra requests and every good record still lands. Failures that are not
 * about the records (authentication, network, server errors) stop the import.
 */
export class BatchSender {
  private batch: PendingRecord[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private failure: unknown;
  private maxTaskID: number | undefined;

  constructor(private readonly options: SenderOptions) {}

  /** The highest task id answered so far: waiting for it waits for every batch sent before it. */
  get lastTaskID(): number | undefined {
    return this.maxTaskID;
  }

  async add(item: PendingRecord): Promise<void> {
    this.batch.push(item);
    if (this.batch.length >= this.options.batchSize) await this.dispatch();
  }

  /** Sends what is left and waits for every batch to be answered. */
  async flush(): Promise<void> {
    if (this.batch.length > 0) await this.dispatch();
    await Promise.all(this.inFlight);
    this.throwIfFailed();
  }

  private async dispatch(): Promise<void> {
    this.throwIfFailed();
    const items = this.batch;
    this.batch = [];
    const sending: Promise<void> = this.send(items)
      .catch((error: unknown) => {
        this.failure ??= error;
      })
      .finally(() => this.inFlight.delete(sending));
    this.inFlight.add(sending);
    // Back-pressure: the file is read no faster than the server accepts batches.
    while (this.inFlight.size >= (this.options.concurrency ?? 2)) await Promise.race(this.inFlight);
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure === undefined) return;
    throw new CliError(describeFailure(this.failure), { cause: this.failure });
  }

  private async send(items: PendingRecord[], busyRetries = 0): Promise<void> {
    const { client, indexName } = this.options;
    try {
      const response = await client.batch({
        indexName,
        batchWriteParams: { requests: items.map((item) => ({ action: 'addObject' as const, body: item.record })) },
      });
      this.maxTaskID = Math.max(this.maxTaskID ?? 0, response.taskID);
      this.options.onAccepted(items.length);
    } catch (error) {
      const status = apiStatus(error);
      if (status === 429 && busyRetries < MAX_BUSY_RETRIES) {
        // The server has too many writes pending: give it time to apply them, longer at each refusal.
        await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** busyRetries));
        return this.send(items, busyRetries + 1);
      }
      if (status === undefined || status < 400 || status >= 500 || status === 401 || status === 403 || status === 404 || status === 429) {
        throw error;
      }
      if (items.length === 1) {
        this.options.onRejected(items[0], messageOf(error));
        return;
      }
      const middle = Math.ceil(items.length / 2);
      await this.send(items.slice(0, middle));
      await this.send(items.slice(middle));
    }
  }
}
