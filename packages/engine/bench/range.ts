/**
 * Numeric range filters: the working tree's NumericColumn (threshold sets) against the one of a git revision
 * (default HEAD, i.e. the plain fill if the change is not committed yet), on the demo catalogue's prices.
 *
 *   node --import tsx packages/engine/bench/range.ts [--size 100000] [--rounds 2000] [--baseline HEAD] [--quantiles 32]
 *
 * At --size 1000000 the engine snapshot /tmp/snap-1000000.bin is used when present (else the catalogue is
 * generated). Ranges are those of the benchmark's mix (b): a random product's price p, [⌊p/2⌋, ⌈2p⌉]; plus
 * `price>=1`, `price<100` and `price!=x`. Every answer is checked against the baseline's before timing. The
 * baseline module is the revision's numeric-column.ts, copied to a temporary directory with its imports
 * pointed back at this tree (so both share the same bitset pool).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generateProducts } from '@vitrine/demo';
import { loadSnapshot } from '../src/index.ts';
import { parsePath } from '../src/index/attributes.ts';
import { FacetColumn } from '../src/index/facet-column.ts';
import { NumericColumn } from '../src/index/numeric-column.ts';
import { DEFAULT_THRESHOLDS } from '../src/index/numeric-thresholds.ts';
import { queryBitsets } from '../src/structures/bitset-pool.ts';
import type { Bitset } from '../src/structures/bitset.ts';
import { asDocId } from '../src/structures/ids.ts';
import { createRandom } from '../../demo/src/random.ts';

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 && process.argv[at + 1] !== undefined ? process.argv[at + 1] : fallback;
}

const size = Number(option('size', '100000'));
const rounds = Number(option('rounds', '2000'));
const revision = option('baseline', 'HEAD');
const quantiles = Number(option('quantiles', String(DEFAULT_THRESHOLDS.quantiles)));
const snapshotPath = `/tmp/snap-${size}.bin`;

/** The price facet column and the number of documents, from the snapshot or a freshly generated catalogue. */
function priceFacet(): { facet: FacetColumn; documents: number } {
  if (existsSync(snapshotPath)) {
    const store = (loadSnapshot(readFileSync(snapshotPath)) as unknown as { store: { facets: Map<string, FacetColumn>; capacity: number } }).store;
    return { facet: store.facets.get('price')!, documents: store.capacity };
  }
  const facet = new FacetColumn('price', parsePath('price'));
  let doc = 0;
  for (const product of generateProducts(size, 1)) facet.add(asDocId(doc++), product);
  return { facet, documents: doc };
}

interface Column {
  compare(operator: '<' | '<=' | '=' | '!=' | '>=' | '>', value: number, capacity: number): Bitset;
  range(lower: number, upper: number, capacity: number): Bitset;
}

async function baselineClass(): Promise<{ fromFacet(column: FacetColumn, documents: number): Column | null }> {
  const root = resolve(import.meta.dirname, '../../..');
  const source = execFileSync('git', ['show', `${revision}:packages/engine/src/index/numeric-column.ts`], { cwd: root, encoding: 'utf8' })
    .replaceAll("from '../", `from '${root}/packages/engine/src/`)
    .replaceAll("from './", `from '${root}/packages/engine/src/index/`);
  // .mts: outside the package, a .ts file would load as CommonJS, with its own copy of the bitset pool.
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-range-'));
  const file = join(dir, 'numeric-column.mts');
  writeFileSync(file, source);
  const module = (await import(file)) as { NumericColumn: { fromFacet(column: FacetColumn, documents: number): Column | null } };
  rmSync(dir, { recursive: true });
  return module.NumericColumn;
}

const { facet, documents } = priceFacet();
const Baseline = await baselineClass();
const before = Baseline.fromFacet(facet, documents)!;
const after = NumericColumn.fromFacet(facet, documents, { ...DEFAULT_THRESHOLDS, quantiles })!;
const random = createRandom(11);
const prices: number[] = [];
for (let i = 0; i < rounds; i++) {
  const p = after.first[random.int(documents)];
  if (!Number.isNaN(p)) prices.push(p);
}

type Query = (column: Column) => Bitset;
const mixes: Array<{ name: string; queries: Query[] }> = [
  { name: 'price:⌊p/2⌋ TO ⌈2p⌉', queries: prices.map((p) => (c: Column) => c.range(Math.floor(p * 0.5), Math.ceil(p * 2), documents)) },
  { name: 'price>=1', queries: [(c: Column) => c.compare('>=', 1, documents)] },
  { name: 'price<100', queries: [(c: Column) => c.compare('<', 100, documents)] },
  { name: 'price!=p', queries: prices.map((p) => (c: Column) => c.compare('!=', p, documents)) },
];

// The first wide query builds the threshold sets: time it alone, then check every answer.
const t = performance.now();
mixes[0].queries[0](after);
queryBitsets.releaseAll();
const buildMs = performance.now() - t;
let matched = 0;
for (const { name, queries } of mixes) {
  for (const query of queries) {
    const a = query(before).words;
    const b = query(after).words;
    if (a.length !== b.length || a.some((w, i) => w !== b[i])) throw new Error(`${name}: answers differ`);
    matched += query(after).count();
    queryBitsets.releaseAll();
  }
}

/** Microseconds per query over the mix, repeated to about 300 ms, best of three. */
function time(column: Column, queries: Query[]): number {
  const repeat = Math.max(1, Math.ceil(rounds / queries.length));
  let best = Infinity;
  for (let run = 0; run < 3; run++) {
    const start = performance.now();
    for (let r = 0; r < repeat; r++) {
      for (const query of queries) {
        query(column);
        queryBitsets.releaseAll();
      }
    }
    best = Math.min(best, ((performance.now() - start) * 1000) / (repeat * queries.length));
  }
  return best;
}

console.log(`${documents} documents, ${prices.length} ranges, baseline ${revision}, ${quantiles} quantiles; first wide query (builds the sets) ${buildMs.toFixed(1)} ms; answers identical (${matched} matches)`);
for (const { name, queries } of mixes) {
  const old = time(before, queries);
  const now = time(after, queries);
  console.log(`${name.padEnd(22)} before ${old.toFixed(1).padStart(8)} µs   after ${now.toFixed(1).padStart(8)} µs   ×${(old / now).toFixed(1)}`);
}
