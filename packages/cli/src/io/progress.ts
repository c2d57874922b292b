import cliProgress from 'cli-progress';
import type { OutputStream } from '../context.ts';

/**
 * Progress of a long operation: a redrawn bar on a terminal, and on anything else (CI logs, pipes, files)
 * plain lines, at most one a second, so logs stay readable.
 */
export interface Progress {
  /** `value` out of `total`; `detail` is the text after the bar ("12,000 records sent, 4,100/s"). */
  update(value: number, detail: string): void;
  /** Final state, then the bar is left on screen and the cursor moves on. */
  stop(value: number, detail: string): void;
}

export interface ProgressOptions {
  stream: OutputStream;
  label: string;
  total: number;
  /** How `value`/`total` read: records are counted, bytes are shown in MB. */
  unit: 'records' | 'bytes';
  /** Plain-line mode only: minimum time between two lines. Default 1000 ms. */
  intervalMs?: number;
}

const number = new Intl.NumberFormat('en-US');

export function formatAmount(value: number, unit: ProgressOptions['unit']): string {
  return unit === 'bytes' ? `${(value / 1_048_576).toFixed(1)} MB` : number.format(value);
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

export function createProgress(options: ProgressOptions): Progress {
  const { stream, label, total, unit } = options;
  const started = Date.now();
  const eta = (value: number) => {
    const elapsed = (Date.now() - started) / 1000;
    return value > 0 ? formatDuration((elapsed * (total - value)) / value) : '?';
  };

  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream: stream as unknown as NodeJS.WritableStream,
        // `eta` is a built-in token of cli-progress (raw seconds): ours is `remaining`, formatted.
        format: `${label} {bar} {percentage}% | {amount}{detail} | ETA {remaining}`,
        hideCursor: true,
        clearOnComplete: false,
        etaBuffer: 50,
      },
      cliProgress.Presets.shades_classic,
    );
    const payload = (value: number, detail: string) => ({
      amount: `${formatAmount(value, unit)}/${formatAmount(total, unit)}`,
      detail: detail ? ` | ${detail}` : '',
      remaining: eta(value),
    });
    bar.start(Math.max(total, 1), 0, payload(0, ''));
    return {
      update: (value, detail) => bar.update(Math.min(value, total), payload(value, detail)),
      stop: (value, detail) => {
        bar.update(Math.min(value, total), { ...payload(value, detail), remaining: '0s' });
        bar.stop();
      },
    };
  }

  const interval = options.intervalMs ?? 1000;
  let last = 0;
  const line = (value: number, detail: string, done: boolean) => {
    const percent = total > 0 ? Math.floor((100 * Math.min(value, total)) / total) : 100;
    const parts = [`${label} ${percent}%`, `${formatAmount(value, unit)}/${formatAmount(total, unit)}`, detail];
    if (!done) parts.push(`ETA ${eta(value)}`);
    stream.write(parts.filter(Boolean).join(' | ') + '\n');
  };
  return {
    update(value, detail) {
      const now = Date.now();
      if (now - last < interval) return;
      last = now;
      line(value, detail, false);
    },
    stop: (value, detail) => line(value, detail, true),
  };
}
