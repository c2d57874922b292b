import fc from 'fast-check';
import type { FilterNode, NumericOperator } from './types.ts';

/**
 * Test support only (never imported by the engine): fast-check generators shared by the filter property tests
 * and the fuzz script. Records and filter trees draw on the same small vocabulary, so that random filters
 * actually select something.
 */

/** Values chosen to stress quoting, keywords, case and diacritics folding. */
export const TRICKY_VALUES = [
  'Apple', 'apple', 'APPLE', 'Sony', 'Émile', 'emile', 'two words', 'AND', 'OR', 'NOT', 'TO', 'and', '',
  'a:b', 'say "hi"', "o'neil", '(x)', '-5', '3', '3.0', 'true', 'false', 'back\\slash', '<=', '!',
] as const;

export const FACET_ATTRIBUTES = ['brand', 'color', 'free', 'objectID', 'two words', 'price'] as const;
export const NUMERIC_ATTRIBUTES = ['price', 'rating', 'stock'] as const;
export const OPERATORS: readonly NumericOperator[] = ['<', '<=', '=', '!=', '>=', '>'];

const smallNumber = fc.oneof(
  fc.integer({ min: -5, max: 10 }),
  fc.constantFrom(0.5, -2.25, 1.5, 1e-7, 1e21, -0),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const value = fc.oneof(fc.constantFrom(...TRICKY_VALUES), fc.string({ maxLength: 6 }));

export const recordArbitrary: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    objectID: fc.constantFrom('a', 'b', 'Apple', 'two words'),
    brand: fc.constantFrom(...TRICKY_VALUES),
    color: fc.array(fc.constantFrom('red', 'Red', 'blue', 'AND', 'é'), { maxLength: 3 }),
    free: fc.boolean(),
    price: fc.oneof(fc.integer({ min: -5, max: 10 }), fc.constantFrom(0.5, 1.5, -2.25), fc.array(fc.integer({ min: -5, max: 10 }), { maxLength: 3 })),
    rating: fc.integer({ min: 1, max: 5 }),
    _tags: fc.array(fc.constantFrom('new', 'New', 'sale', 'AND', '-x', 'a:b', ''), { maxLength: 3 }),
  },
  { requiredKeys: ['objectID'] },
);

/** Records with holes: an `undefined` slot is a deleted document. */
export const recordsArbitrary = fc.array(fc.option(recordArbitrary, { nil: undefined, freq: 6 }), { maxLength: 40 });

export const leafArbitrary: fc.Arbitrary<FilterNode> = fc.oneof(
  fc.record({ kind: fc.constant('facet' as const), attribute: fc.constantFrom(...FACET_ATTRIBUTES), value }),
  fc.record({ kind: fc.constant('tag' as const), value }),
  fc.record({
    kind: fc.constant('numeric' as const),
    attribute: fc.constantFrom(...NUMERIC_ATTRIBUTES),
    operator: fc.constantFrom(...OPERATORS),
    value: smallNumber,
  }),
  fc.record({ kind: fc.constant('range' as const), attribute: fc.constantFrom(...NUMERIC_ATTRIBUTES), lower: smallNumber, upper: smallNumber }),
  fc.record({ kind: fc.constant('boolean' as const), value: fc.boolean() }),
);

export const treeArbitrary: fc.Arbitrary<FilterNode> = fc.letrec<{ node: FilterNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafArbitrary,
    fc.record({ kind: fc.constant('and' as const), children: fc.array(tie('node'), { maxLength: 4 }) }),
    fc.record({ kind: fc.constant('or' as const), children: fc.array(tie('node'), { maxLength: 4 }) }),
    fc.record({ kind: fc.constant('not' as const), child: tie('node') }),
  ),
})).node;
