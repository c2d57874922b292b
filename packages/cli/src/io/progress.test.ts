import { describe, expect, it } from 'vitest';
import { createProgress, formatDuration } from './progress.ts';

describe('progress off a terminal', () => {
  it('prints plain lines, throttled, and always the final state', () => {
    const lines: string[] = [];
    const stream = { write: (chunk: string) => lines.push(chunk), isTTY: false };
    const progress = createProgress({ stream, label: 'Import', total: 2_097_152, unit: 'bytes', intervalMs: 60_000 });
    progress.update(1_048_576, '10 records sent');
    progress.update(1_572_864, 'throttled away');
    progress.stop(2_097_152, '20 records sent');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Import 50% \| 1\.0 MB\/2\.0 MB \| 10 records sent \| ETA \S+\n$/);
    expect(lines[1]).toBe('Import 100% | 2.0 MB/2.0 MB | 20 records sent\n');
  });

  it('formats durations', () => {
    expect(formatDuration(5.4)).toBe('5s');
    expect(formatDuration(125)).toBe('2m05s');
    expect(formatDuration(Infinity)).toBe('?');
  });
});
