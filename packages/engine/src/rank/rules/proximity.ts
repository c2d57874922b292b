/**
 * `proximity`: query words closer together first: the sum, over consecutive query words, of their smallest
 * distance within one attribute (capped at 8, reversed order costing one more, floored at `minProximity`).
 */
import type { RuleFactory } from '../rule.ts';

export const proximityRule: RuleFactory = (context) => {
  if (context.words.length < 2) return null;
  const { scanner } = context;
  if (!context.verify) {
    // With every word required, every pair of consecutive words counts at least minProximity.
    const floor = context.hasOptionalWords ? undefined : (context.words.length - 1) * context.minProximity;
    return { name: 'proximity', key: (doc) => scanner.proximityOf(doc), ...(floor === undefined ? {} : { floor }) };
  }
  return {
    name: 'proximity',
    key(doc) {
      scanner.scan(doc);
      return scanner.proximityAt(doc);
    },
  };
};
