/**
 * Long fuzz run of request parsing, outside CI: `node --import tsx packages/server/bench/fuzz-requests.ts
 * [--runs 1000000] [--seed N]`. The unit suite's cases (`test/fuzz-cases.ts`), many more inputs, shared among
 * them as the suite shares its own, against the real app in process (`inject`, no socket): no answer may be a
 * 5xx, every error must carry Algolia's `{ message, status }` body, every write accepted must apply, and
 * `Object.prototype` must stay empty. Prints progress, and exits non-zero with the counterexample on failure.
 */
import fc from 'fast-check';
import { parseArgs } from 'node:util';
import { createTestApp } from '../src/test-support.ts';
import { caseProperty, foundExamples, FUZZ_CASES, seedFuzzIndex } from '../test/fuzz-cases.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '1000000' }, seed: { type: 'string' } } });
const runs = Number(values.runs);
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
const ciTotal = FUZZ_CASES.reduce((sum, c) => sum + c.ciRuns, 0);

const t = await createTestApp();
await seedFuzzIndex(t);
const started = performance.now();
let done = 0;
let failed = false;
try {
  for (const fuzzCase of FUZZ_CASES) {
    const caseRuns = Math.round((runs * fuzzCase.ciRuns) / ciTotal);
    const caseStarted = performance.now();
    const answered = (): void => {
      if (++done % 100_000 === 0) console.log(`${done} inputs, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    };
    await fc.assert(caseProperty(t, fuzzCase, answered), { numRuns: caseRuns, seed, examples: foundExamples(fuzzCase) });
    console.log(`${fuzzCase.name}: ${caseRuns} inputs in ${((performance.now() - caseStarted) / 1000).toFixed(1)} s`);
  }
} catch (error) {
  failed = true;
  console.error(String((error as Error)?.message ?? error));
} finally {
  await t.close();
}
if (Object.keys(Object.prototype).length > 0) {
  failed = true;
  console.error('Object.prototype was polluted:', Object.keys(Object.prototype));
}
if (t.applyErrors.length > 0) {
  failed = true;
  console.error('accepted writes that failed to apply:', t.applyErrors.slice(0, 5));
}
if (failed) process.exit(1);
console.log(`fuzz-requests: ${done} inputs (seed ${seed}) in ${((performance.now() - started) / 1000).toFixed(1)} s: no 5xx, every error in Algolia's shape, every accepted write applied, no prototype polluted`);
