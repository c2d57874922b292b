/**
 * What the search log costs the event loop per search, by batch size (not a test): 120,000 searches shaped like
 * the HTTP benchmark's (`workload.ts`: a 2–7 letter prefix of 2,000 words, two refined brands and a price filter,
 * five top hits skewed towards popular products) are recorded and written in batches of `--batch` searches by the
 * background writer, chunk by chunk as the server runs it. Prints microseconds per search (recording and writing)
 * for each quarter of the run, as the tables grow.
 *
 *   node --import tsx packages/insights/bench/search-log.ts [--batch 10000] [--searches 120000]
 */
import { parseArgs } from 'node:util';
import { generateProducts } from '@vitrine/demo';
import { createRandom } from '../../demo/src/random.ts';
import { openInsightsDb } from '../src/db.ts';
import { SearchLog } from '../src/search-log.ts';
import { removeDir, tempDir } from '../src/test-support.ts';

const { values } = parseArgs({ options: { batch: { type: 'string', default: '10000' }, searches: { type: 'string', default: '120000' } } });
const BATCH = Number(values.batch);
const SEARCHES = Number(values.searches);
const QUARTER = Math.floor(SEARCHES / 4);

const dir = tempDir('vitrine-search-log-bench-');
const db = openInsightsDb(dir);
// Batches are handed over below, never by the log's own timer or count.
const log = new SearchLog(db, () => Date.UTC(2026, 10, 21, 12), 1e9, 1e9);
// Seeded: the same searches every run.
const random = createRandom(5).next;
// The catalogue words the HTTP benchmark types prefixes of.
const wordSet = new Set<string>();
for (const product of generateProducts(20_000)) {
  for (const word of product.name.toLowerCase().split(/\s+/)) if (word.length > 3 && wordSet.size < 2000) wordSet.add(word);
}
const words = [...wordSet];
const entry = () => {
  const word = words[Math.floor(random() * words.length)];
  return {
    index: 'products',
    query: word.slice(0, 2 + Math.floor(random() * (word.length - 1))),
    nbHits: Math.floor(random() * 1000),
    ip: '127.0.0.1',
    facetFilters: [[`brand:B${Math.floor(random() * 200)}`, `brand:B${Math.floor(random() * 200)}`]],
    numericFilters: ['price>=1'],
    objectIDs: Array.from({ length: 5 }, () => String(Math.floor(random() ** 2 * 100_000))),
  };
};
let started = performance.now();
let recording = 0;
for (let i = 1; i <= SEARCHES; i++) {
  const search = entry();
  const before = performance.now();
  log.record(search);
  recording += performance.now() - before;
  // The batch goes to the background writer, which writes it in chunks on later turns of the event loop.
  if (i % BATCH === 0) await log.settle();
  if (i % QUARTER === 0) {
    const elapsed = performance.now() - started;
    console.log(`${i} searches: ${((elapsed / QUARTER) * 1000).toFixed(1)} µs per search (recording ${((recording / QUARTER) * 1000).toFixed(1)})`);
    started = performance.now();
    recording = 0;
  }
}
log.close();
const rowCount = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
console.log(`rows: ${['query_daily', 'hit_daily', 'hit_query_daily', 'filter_daily'].map((t) => `${t} ${rowCount(t)}`).join(', ')}`);
db.close();
removeDir(dir);
console.log(`batches of ${BATCH} searches`);
