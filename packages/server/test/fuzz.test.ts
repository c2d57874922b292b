/**
 * Request-parsing fuzzing (the cases in `fuzz-cases.ts`, a few hundred inputs each; `bench/fuzz-requests.ts`
 * runs the same cases a million times and more outside CI): whatever arrives, the answer is never a 5xx and
 * every error carries Algolia's `{ message, status }` body.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../src/test-support.ts';
import type { TestApp } from '../src/test-support.ts';
import { answerProblem, caseProperty, foundExamples, FUZZ_CASES, seedFuzzIndex } from './fuzz-cases.ts';

describe('fuzzing request parsing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await seedFuzzIndex(t);
  });
  afterAll(async () => {
    // close() waits for every accepted write to apply. Each must have applied: validation happens before logging.
    await t.close();
    expect(t.applyErrors).toEqual([]);
    // `__proto__` keys are among the values sent.
    expect(Object.keys(Object.prototype)).toEqual([]);
  });

  it('answers a 5xx to no request, and every error in Algolia\'s shape', () => {
    // The answer problem is a string so that fast-check's counterexample says what was wrong.
    expect(answerProblem(503, '{"message":"x","status":503}')).toMatch(/status 503/);
    expect(answerProblem(400, '{"message":"x","status":400}')).toBeNull();
    expect(answerProblem(400, '{"message":"x","status":404}')).toMatch(/with the body/);
    expect(answerProblem(404, 'Not Found')).toMatch(/not JSON/);
  });

  for (const fuzzCase of FUZZ_CASES) {
    it(`answers ${fuzzCase.name} with 2xx or an Algolia 4xx`, async () => {
      await fc.assert(caseProperty(t, fuzzCase), { numRuns: fuzzCase.ciRuns, examples: foundExamples(fuzzCase) });
    });
  }
});
