/**
 * Micro-benchmark: the dictionary's typo walk (`TermTrie`, a trie in typed arrays) against the walk it
 * replaced (`reference/sorted-walk.ts`, over the sorted terms themselves), on two dictionaries: the demo
 * catalogue's vocabulary (about a thousand terms) and 200,000 generated words (a catalogue whose descriptions
 * and codes make a large vocabulary).
 *
 *   node --import tsx packages/engine/bench/typo-walk.ts [--rounds 7]
 *
 * Query words are prefixes of dictionary words, as typed: 4–6 letters with one typo allowed, 8 letters with
 * two, as-you-type (a term matches when one of its prefixes is within the distance). Both implementations must
 * find the same terms with the same distances (checked before timing). Rounds alternate the two; the median
 * round is reported.
 */
import { generateProducts } from '@vitrine/demo';
import { createRandom } from '../../demo/src/random.ts';
import { TermTrie } from '../src/index/term-trie.ts';
import { sortedWalkFuzzy } from './reference/sorted-walk.ts';
import { numberOption } from './workload.ts';

const ROUNDS = numberOption('rounds', 7);

const random = createRandom(11).next;

function demoVocabulary(): string[] {
  const terms = new Set<string>();
  for (const product of generateProducts(20_000, 1)) {
    for (const word of `${product.name} ${product.description} ${product.brand}`.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (word) terms.add(word);
  }
  return [...terms];
}

function generatedVocabulary(size: number): string[] {
  const terms = new Set<string>();
  while (terms.size < size) {
    const length = 3 + Math.floor(random() * 10);
    let word = '';
    // Skewed letters, as in real text: early letters far more common than late ones.
    for (let i = 0; i < length; i++) word += String.fromCharCode(97 + Math.floor(random() * random() * 26));
    terms.add(word);
  }
  return [...terms];
}

function measure(name: string, terms: string[], queries: number): void {
  const sorted = [...terms].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let started = performance.now();
  const trie = new TermTrie(sorted);
  const buildMs = performance.now() - started;
  const long = terms.filter((t) => t.length >= 8);
  console.log(`\n${name}: ${terms.length.toLocaleString('en-US')} terms (trie built in ${buildMs.toFixed(1)} ms)`);
  console.log('query words         trie us   sorted walk us   ratio');
  for (const [length, typos] of [[4, 1], [5, 1], [6, 1], [8, 2]] as const) {
    const words = Array.from({ length: queries }, () => long[Math.floor(random() * long.length)].slice(0, length));
    for (const word of words.slice(0, 50)) {
      const found = new Map<number, number>();
      trie.fuzzy(word, typos, true, (k, distance) => found.set(k, distance));
      let same = true;
      let count = 0;
      sortedWalkFuzzy(sorted, word, typos, true, (k, distance) => {
        count++;
        if (found.get(k) !== distance) same = false;
      });
      if (!same || count !== found.size) throw new Error(`the two walks disagree on "${word}"`);
    }
    const rounds: Record<'trie' | 'sorted', number[]> = { trie: [], sorted: [] };
    for (let round = 0; round < ROUNDS; round++) {
      let found = 0;
      started = performance.now();
      for (const word of words) trie.fuzzy(word, typos, true, () => found++);
      rounds.trie.push(((performance.now() - started) / words.length) * 1000);
      started = performance.now();
      for (const word of words) sortedWalkFuzzy(sorted, word, typos, true, () => found++);
      rounds.sorted.push(((performance.now() - started) / words.length) * 1000);
    }
    const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1];
    const fast = median(rounds.trie);
    const slow = median(rounds.sorted);
    console.log(`${`${length} letters, ${typos} typo${typos > 1 ? 's' : ''}`.padEnd(18)} ${fast.toFixed(1).padStart(8)} ${slow.toFixed(1).padStart(16)} ${(slow / fast).toFixed(1).padStart(6)}x`);
  }
}

measure('demo catalogue vocabulary', demoVocabulary(), 2000);
measure('generated vocabulary', generatedVocabulary(200_000), 300);
