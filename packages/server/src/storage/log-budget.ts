/**
 * How much of the operation log a restart would replay, and so when the next snapshot is due.
 *
 * A snapshot is due once the log since the last one begun holds `snapshotEveryOps` operations,
 * `snapshotEveryRecords` records or `snapshotEveryBytes` bytes of JSON (`opWeight`: what replaying costs).
 * A crash while it is written replays from the snapshot before, so the log since that one (the durable one) is
 * capped at twice each threshold: past it, writes wait for the snapshot under way (`Store.flush`). Replay after a
 * crash at any moment is thus bounded by the cap, plus the writes of one group commit.
 */
import type { ServerLimits } from '../config.ts';
import type { Replayed } from './replay.ts';

/** Cumulative records and bytes of the log (since the process started). */
export interface LogMark {
  ops: number;
  records: number;
  bytes: number;
}

const zero = (): LogMark => ({ ops: 0, records: 0, bytes: 0 });

export class LogBudget {
  /** Since the last snapshot began: when the next is due. */
  private sinceStart = zero();
  /** Logged (durable), applied, and covered by the durable snapshot. */
  private readonly logged = zero();
  private readonly appliedTotal = zero();
  private durable = zero();

  constructor(private readonly limits: Pick<ServerLimits, 'snapshotEveryOps' | 'snapshotEveryRecords' | 'snapshotEveryBytes'>) {}

  /** The log replayed on start: all of it after the durable snapshot. */
  replayed(replayed: Replayed): void {
    this.sinceStart = { ...replayed };
    Object.assign(this.logged, replayed);
    Object.assign(this.appliedTotal, replayed);
  }

  /** An operation is in the log: `records` its weight as logged, `bytes` its JSON. */
  loggedOp(records: number, bytes: number): void {
    this.logged.ops++;
    this.logged.records += records;
    this.logged.bytes += bytes;
  }

  /**
   * An operation applied: `records` its weight as logged, `weight` what applying it cost (more for a copy or a
   * rebuild, known only against the state it applies to).
   */
  applied(records: number, weight: number, bytes: number): void {
    this.logged.records += weight - records;
    this.appliedTotal.ops++;
    this.appliedTotal.records += weight;
    this.appliedTotal.bytes += bytes;
    this.sinceStart.ops++;
    this.sinceStart.records += weight;
    this.sinceStart.bytes += bytes;
  }

  snapshotDue(): boolean {
    const { ops, records, bytes } = this.sinceStart;
    return ops >= this.limits.snapshotEveryOps || records >= this.limits.snapshotEveryRecords || bytes >= this.limits.snapshotEveryBytes;
  }

  /** A snapshot of everything applied begins: the mark to pass to `snapshotDurable` once it is current. */
  snapshotStarted(): LogMark {
    this.sinceStart = zero();
    return { ...this.appliedTotal };
  }

  snapshotDurable(mark: LogMark): void {
    this.durable = mark;
  }

  /** The log since the durable snapshot: what a crash now would replay. */
  sinceDurable(): LogMark {
    return { ops: this.logged.ops - this.durable.ops, records: this.logged.records - this.durable.records, bytes: this.logged.bytes - this.durable.bytes };
  }

  /** At twice any threshold: writes wait for the snapshot under way. */
  overCap(): boolean {
    const { ops, records, bytes } = this.sinceDurable();
    return ops >= 2 * this.limits.snapshotEveryOps || records >= 2 * this.limits.snapshotEveryRecords || bytes >= 2 * this.limits.snapshotEveryBytes;
  }
}
