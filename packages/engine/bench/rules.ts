/**
 * What rules cost a search: the same one-word queries on one index, with rules turned off (`enableRules: false`),
 * with rules on when none matches the query, and with rules on when one does.
 *
 *   node --import tsx packages/engine/bench/rules.ts [--size 1000000] [--rules 200] [--rounds 5]
 *
 * The queries are the most common words of the catalogue's product names (as shoppers type "lamp" or "drill").
 * Every other word gets a rule whose pattern is that word; the rules cycle through the consequences a shop uses
 * (promote two products, hide three, add a filter, boost a brand with an optional filter, a banner in userData
 * with the word removed from the query), timed per kind. Each query runs with rules off and on back to back, so a
 * slow patch of the machine hits both alike.
 */
import type { Product, Rule } from '@vitrine/protocol';
import { demoSettings, generateProducts } from '@vitrine/demo';
import { SearchIndex } from '../src/index.ts';
import { FACETS, inBatches, numberOption, percentile } from './workload.ts';

const size = numberOption('size', 1_000_000);
const ruleCount = numberOption('rules', 200);
const rounds = numberOption('rounds', 5);

// One pass of the generator picks the words and the products the rules name; the index is built from a second,
// so the process holds no catalogue while it measures (as run.ts does).
const wordCounts = new Map<string, number>();
const sample: Product[] = [];
let seen = 0;
for (const product of generateProducts(size, 1)) {
  for (const word of product.name.toLowerCase().split(/\s+/)) if (/^[a-z]{3,}$/.test(word)) wordCounts.set(word, (wordCounts.get(word) ?? 0) + 1);
  if (seen++ % Math.max(1, Math.floor(size / 5000)) === 0) sample.push(product);
}
const words = [...wordCounts].sort((a, b) => b[1] - a[1]).slice(0, ruleCount * 2).map(([word]) => word);
const ruled = words.filter((_, i) => i % 2 === 0);
const unruled = words.filter((_, i) => i % 2 === 1);
const pick = (i: number): Product => sample[(i * 7919) % sample.length];

function ruleFor(word: string, i: number): Rule {
  const conditions = [{ pattern: word, anchoring: 'contains' as const }];
  const kinds: Rule['consequence'][] = [
    { promote: [{ objectIDs: [pick(i).objectID, pick(i + 1).objectID], position: 0 }], filterPromotes: true },
    { hide: [pick(i).objectID, pick(i + 1).objectID, pick(i + 2).objectID].map((objectID) => ({ objectID })) },
    { params: { filters: 'free_shipping:true' } },
    { params: { optionalFilters: [`brand:${pick(i).brand}<score=3>`] } },
    { params: { query: { edits: [{ type: 'remove', delete: word }] } }, userData: { type: 'banner', title: word } },
  ];
  return { objectID: `bench-${i}`, conditions, consequence: kinds[i % kinds.length] };
}

const index = new SearchIndex(demoSettings);
index.setResultCacheBytes(0); // measure the search, not the result cache
let t = performance.now();
for (const batch of inBatches(generateProducts(size, 1), 1000)) index.saveObjects(batch);
const buildSeconds = (performance.now() - t) / 1000;
index.setRules(ruled.map(ruleFor));

const search = (query: string, enableRules: boolean) =>
  index.search({ query, hitsPerPage: 20, facets: FACETS, enableRules, getRankingInfo: true });

// A rule must really fire on its word and no rule on the others, or the figures below mean nothing.
for (const word of ruled) if ((search(word, true).appliedRules ?? []).length === 0) throw new Error(`no rule applied to "${word}"`);
for (const word of unruled) if ((search(word, true).appliedRules ?? []).length !== 0) throw new Error(`a rule applied to "${word}"`);

// Rule i has consequence kind i % 5 (see ruleFor): the matching words are timed per kind, since each kind makes
// a different search (a hide or a promote the same one, a filter a narrower one, a removed word an empty query).
const KINDS = ['promote 2', 'hide 3', 'filters', 'optionalFilters', 'banner + word removed'];
const times = { off: [] as number[], noMatch: [] as number[], ruleOff: KINDS.map(() => [] as number[]), match: KINDS.map(() => [] as number[]) };
const time = (into: number[] | null, query: string, enableRules: boolean): void => {
  t = performance.now();
  search(query, enableRules);
  into?.push(performance.now() - t);
};
// Round 0 is an untimed warm-up (word caches, the structures the import left to build); after it, the order of
// the two modes alternates from one round to the next, so neither always runs on the other's warm caches.
for (let round = 0; round <= rounds; round++) {
  const timed = round > 0;
  const pair = (offInto: number[], onInto: number[], word: string): void => {
    const first = round % 2 === 0;
    time(timed ? (first ? offInto : onInto) : null, word, !first);
    time(timed ? (first ? onInto : offInto) : null, word, first);
  };
  for (const word of unruled) pair(times.off, times.noMatch, word);
  ruled.forEach((word, i) => pair(times.ruleOff[i % KINDS.length], times.match[i % KINDS.length], word));
}

const line = (label: string, values: number[], baseline?: number[]): string => {
  const ratio = baseline === undefined ? '' : `  (p50 ×${(percentile(values, 0.5) / percentile(baseline, 0.5)).toFixed(2)} of rules off)`;
  return `${label.padEnd(52)} p50 ${percentile(values, 0.5).toFixed(2).padStart(7)} ms  p99 ${percentile(values, 0.99).toFixed(2).padStart(7)} ms${ratio}`;
};
console.log(`size ${size.toLocaleString('en')}, build ${buildSeconds.toFixed(1)} s, ${ruled.length} rules, ${rounds} rounds of ${words.length} one-word queries`);
console.log(line('words without a rule, enableRules: false', times.off));
console.log(line('words without a rule, rules on (none match)', times.noMatch, times.off));
KINDS.forEach((kind, k) => {
  console.log(line(`rule "${kind}", enableRules: false`, times.ruleOff[k]));
  console.log(line(`rule "${kind}", rules on (it matches)`, times.match[k], times.ruleOff[k]));
});
