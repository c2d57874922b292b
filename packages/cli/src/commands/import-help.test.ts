import { describe, expect, it } from 'vitest';
import { runCli } from '../testing.ts';

describe('vitrine import --help', () => {
  it('says how JSON files are read: an array element by element, or NDJSON, and how reading resynchronises', async () => {
    const run = await runCli(['import', '--help']);
    expect(run.code).toBe(0);
    const help = run.stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(/\.json a JSON array of objects, on one line or pretty-printed, read element by element/);
    expect(help).toContain('one that does not parse costs only itself');
    expect(help).toContain('a string ends at the end of its line');
    expect(help).toContain('a closing bracket closes the innermost open one of its kind (one with none is ignored)');
    expect(help).toContain("a line starting with { or [ at no more indentation than the array's first element starts the next element");
    expect(help).toContain('A file that is not a JSON array is reported at line 1 and not read');
    expect(help).toMatch(/\.ndjson, \.jsonl one JSON object per line; blank lines are skipped, a malformed line is listed and skipped/);
  });
});
