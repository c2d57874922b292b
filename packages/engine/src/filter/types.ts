import type { Bitset } from '../structures/bitset.ts';

/**
 * The syntax tree every filter form compiles to: `filters` strings, `facetFilters`, `numericFilters`,
 * `tagFilters` (and the filters forced by secured API keys) all become one `FilterNode`, combined with AND.
 */
export type FilterNode =
  | { kind: 'and'; children: FilterNode[] }
  | { kind: 'or'; children: FilterNode[] }
  | { kind: 'not'; child: FilterNode }
  /**
   * `attr:value` — facet equality; value compared after `normalizeText` (case- and diacritics-insensitive).
   * `score` is the filter score of `attr:value<score=N>` (`score.ts`): it ranks, never filters.
   */
  | { kind: 'facet'; attribute: string; value: string; score?: number }
  /** `_tags:value` or a tagFilters entry. */
  | { kind: 'tag'; value: string; score?: number }
  /** `attr < 3` and friends. */
  | { kind: 'numeric'; attribute: string; operator: NumericOperator; value: number }
  /** `attr:lo TO hi`, inclusive. */
  | { kind: 'range'; attribute: string; lower: number; upper: number }
  | { kind: 'boolean'; value: boolean };

export type NumericOperator = '<' | '<=' | '=' | '!=' | '>=' | '>';

/** `value op bound` for each operator: what a numeric condition means for one value. */
export const NUMERIC_TESTS: Record<NumericOperator, (value: number, bound: number) => boolean> = {
  '<': (value, bound) => value < bound,
  '<=': (value, bound) => value <= bound,
  '=': (value, bound) => value === bound,
  '!=': (value, bound) => value !== bound,
  '>=': (value, bound) => value >= bound,
  '>': (value, bound) => value > bound,
};

/** Limits that keep hostile filters cheap: exceeded limits throw a 400-class `EngineError`, never recurse deeply. */
export interface FilterLimits {
  /** Maximum input length in characters. Default 20,000 (a 1 MB filter is rejected before parsing). */
  maxLength: number;
  /** Maximum parenthesis / nesting depth. Default 64. */
  maxDepth: number;
  /** Maximum number of leaf conditions. Default 1,000. */
  maxTerms: number;
}

/**
 * What the evaluator needs from an index: bitsets over internal document ids. Implemented by the engine's index;
 * the filter module never sees the index itself, so it can be tested against a brute-force source.
 * Returned bitsets may be shared: the evaluator must clone before mutating.
 */
export interface FilterSource {
  readonly capacity: number;
  /** Every live document. */
  all(): Bitset;
  /** Documents whose `attribute` (a facet, `objectID` or a boolean) equals `value`, case-insensitively. */
  facet(attribute: string, value: string): Bitset;
  /** Documents with `value` in `_tags`. */
  tag(value: string): Bitset;
  /** Documents with a numeric value of `attribute` satisfying the comparison (any element for arrays). */
  numeric(attribute: string, operator: NumericOperator, value: number): Bitset;
  /** Documents with a numeric value of `attribute` within [lower, upper]. */
  range(attribute: string, lower: number, upper: number): Bitset;
}

/** A filter that ranks without filtering (optionalFilters, filter scores): matched, it adds `score`. */
export interface OptionalFilter {
  node: FilterNode;
  /** Added to a record's `filters` ranking score when it matches `node`. */
  score: number;
}
