/**
 * Long fuzz run of the filter parsers, outside CI: `node --import tsx packages/engine/bench/fuzz-filters.ts
 * [--runs 1000000] [--seed N]`. Same checks as the unit suite's fuzz tests, many more inputs:
 * - `filters` text (token soup, random text, and printed random trees) → only EngineError is thrown; whatever
 *   parses prints back to text that parses; hostile sizes stay fast (the slowest input is reported);
 * - the list forms on random JSON values and JSON strings → only EngineError.
 * Exits non-zero with the counterexample on failure.
 */
import fc from 'fast-check';
import { EngineError } from '../src/errors.ts';
import {
  buildFilterNode,
  type FilterParams,
  filterToString,
  optionalFiltersToNodes,
  parseFilterString,
} from '../src/filter/index.ts';
import { treeArbitrary } from '../src/filter/test-arbitraries.ts';
import { numberOption } from './workload.ts';

const runs = numberOption('runs', 1_000_000);
const seed = numberOption('seed', Date.now() % 2 ** 31);
let slowest = { ms: 0, input: '' };

function tolerate(run: () => void): void {
  try {
    run();
  } catch (error) {
    if (!(error instanceof EngineError)) throw error;
  }
}

const piece = fc.oneof(
  fc.constantFrom('(', ')', ' ', 'AND', 'OR', 'NOT', 'TO', ':', '<', '<=', '=', '!=', '>=', '>', '!', '"', "'", '\\', '-', '.', 'e'),
  fc.constantFrom('price', 'brand', '_tags', 'Apple', '10', '-1.5', '1e5', '1e999', '.5', '"a b"', "'x'", 'é', '\u00a0', '\n'),
  fc.string({ maxLength: 4, unit: 'binary' }),
);
const soup = fc.array(piece, { maxLength: 60 }).map((parts) => parts.join(''));
const text = fc.oneof(soup, fc.string({ unit: 'binary', maxLength: 80 }), treeArbitrary.map(filterToString));
const list = fc.oneof(
  fc.jsonValue(),
  fc.array(fc.oneof(soup, fc.array(soup, { maxLength: 4 })), { maxLength: 5 }),
  fc.array(fc.oneof(soup, fc.array(soup, { maxLength: 4 })), { maxLength: 5 }).map((v) => JSON.stringify(v)),
);

const started = performance.now();
const textRuns = Math.ceil(runs * 0.7);
fc.assert(
  fc.property(text, (input) => {
    const t0 = performance.now();
    tolerate(() => {
      const node = parseFilterString(input);
      parseFilterString(filterToString(node), { maxDepth: 10_000, maxTerms: 1_000_000, maxLength: Infinity });
    });
    const ms = performance.now() - t0;
    if (ms > slowest.ms) slowest = { ms, input };
  }),
  { numRuns: textRuns, seed },
);
fc.assert(
  fc.property(list, list, (a, b) => {
    tolerate(() => void buildFilterNode({ filters: a, facetFilters: b, numericFilters: a, tagFilters: b } as unknown as FilterParams));
    tolerate(() => void optionalFiltersToNodes(b as string));
  }),
  { numRuns: runs - textRuns, seed },
);
const seconds = (performance.now() - started) / 1000;
console.log(`fuzz-filters: ${runs} inputs (seed ${seed}) in ${seconds.toFixed(1)} s, no error other than EngineError`);
// The slowest single measurement is often a GC pause: time that input again, alone, to tell the two apart.
const again: number[] = [];
for (let i = 0; i < 20; i++) {
  const t0 = performance.now();
  tolerate(() => void parseFilterString(slowest.input));
  again.push(performance.now() - t0);
}
again.sort((a, b) => a - b);
console.log(
  `slowest filters parse: ${slowest.ms.toFixed(2)} ms during the run, ${again[10].toFixed(3)} ms median when timed again, ` +
    `for ${JSON.stringify(slowest.input.slice(0, 80))}`,
);
