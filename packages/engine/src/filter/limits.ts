import type { FilterLimits } from './types.ts';

/** Defaults sized for real storefronts: InstantSearch's biggest filters are a few hundred characters. */
export const DEFAULT_FILTER_LIMITS: Readonly<FilterLimits> = Object.freeze({
  maxLength: 20_000,
  maxDepth: 64,
  maxTerms: 1_000,
});

export function resolveLimits(limits?: Partial<FilterLimits>): FilterLimits {
  return {
    maxLength: limits?.maxLength ?? DEFAULT_FILTER_LIMITS.maxLength,
    maxDepth: limits?.maxDepth ?? DEFAULT_FILTER_LIMITS.maxDepth,
    maxTerms: limits?.maxTerms ?? DEFAULT_FILTER_LIMITS.maxTerms,
  };
}
