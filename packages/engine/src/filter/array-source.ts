import { leaves, parsePath } from '../index/attributes.ts';
import { Bitset } from '../structures/bitset.ts';
import { normalizeText } from '../tokenize/index.ts';
import { NUMERIC_TESTS, type FilterNode, type FilterSource, type NumericOperator } from './types.ts';

/**
 * A brute-force `FilterSource` over an array of plain records: the oracle the filter tests and the fuzz script
 * compare the evaluator with. Slots holding `undefined` are deleted documents (outside `all()`).
 *
 * Leaf semantics, written to match the `FilterSource` contract: facet values compare after `normalizeText`
 * (numbers and booleans by their string form), tags compare exactly, numeric conditions hold when any element
 * of a numeric array does. Returned sets are cached and shared, as an index's would be, so tests can check
 * that the evaluator never mutates them.
 */
export class ArrayFilterSource implements FilterSource {
  readonly capacity: number;
  private readonly cache = new Map<string, Bitset>();

  constructor(readonly records: ReadonlyArray<Record<string, unknown> | undefined>) {
    this.capacity = records.length;
  }

  all(): Bitset {
    return this.cached('all', () => true);
  }

  facet(attribute: string, value: string): Bitset {
    return this.cached(`f\u0000${attribute}\u0000${value}`, (record) =>
      leafMatches(record, { kind: 'facet', attribute, value }),
    );
  }

  tag(value: string): Bitset {
    return this.cached(`t\u0000${value}`, (record) => leafMatches(record, { kind: 'tag', value }));
  }

  numeric(attribute: string, operator: NumericOperator, value: number): Bitset {
    return this.cached(`n\u0000${attribute}\u0000${operator}\u0000${value}`, (record) =>
      leafMatches(record, { kind: 'numeric', attribute, operator, value }),
    );
  }

  range(attribute: string, lower: number, upper: number): Bitset {
    return this.cached(`r\u0000${attribute}\u0000${lower}\u0000${upper}`, (record) =>
      leafMatches(record, { kind: 'range', attribute, lower, upper }),
    );
  }

  /** Every set handed out so far, to check after an evaluation that none was modified. */
  handedOut(): Array<[string, Bitset]> {
    return [...this.cache.entries()];
  }

  private cached(key: string, predicate: (record: Record<string, unknown>) => boolean): Bitset {
    let set = this.cache.get(key);
    if (set === undefined) {
      set = new Bitset(this.capacity);
      this.records.forEach((record, id) => {
        if (record !== undefined && predicate(record)) set!.add(id);
      });
      this.cache.set(key, set);
    }
    return set;
  }
}

/** The values at a dotted path, as the index reads them (keys holding dots, arrays flattened: `index/attributes.ts`). */
function valuesAt(record: Record<string, unknown>, path: string): unknown[] {
  return leaves(record, parsePath(path));
}

type Leaf = Extract<FilterNode, { kind: 'facet' | 'tag' | 'numeric' | 'range' }>;

function leafMatches(record: Record<string, unknown>, leaf: Leaf): boolean {
  switch (leaf.kind) {
    case 'facet': {
      const wanted = normalizeText(leaf.value);
      return valuesAt(record, leaf.attribute).some(
        (v) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') && normalizeText(String(v)) === wanted,
      );
    }
    case 'tag':
      return valuesAt(record, '_tags').some((v) => v === leaf.value);
    case 'numeric':
      return valuesAt(record, leaf.attribute).some((v) => typeof v === 'number' && NUMERIC_TESTS[leaf.operator](v, leaf.value));
    case 'range':
      return valuesAt(record, leaf.attribute).some((v) => typeof v === 'number' && v >= leaf.lower && v <= leaf.upper);
  }
}

/** Whether one live record satisfies a whole tree: plain recursive boolean logic, the oracle for `evaluateFilter`. */
export function recordMatches(record: Record<string, unknown>, node: FilterNode): boolean {
  switch (node.kind) {
    case 'and':
      return node.children.every((child) => recordMatches(record, child));
    case 'or':
      return node.children.some((child) => recordMatches(record, child));
    case 'not':
      return !recordMatches(record, node.child);
    case 'boolean':
      return node.value;
    default:
      return leafMatches(record, node);
  }
}

/** Ids of the live records matching `node`, by brute force. */
export function bruteForceIds(records: ReadonlyArray<Record<string, unknown> | undefined>, node: FilterNode): number[] {
  const ids: number[] = [];
  records.forEach((record, id) => {
    if (record !== undefined && recordMatches(record, node)) ids.push(id);
  });
  return ids;
}
