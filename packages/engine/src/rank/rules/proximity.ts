/**
 * `proximity`: query words closer together first: the sum, over consecutive query words, of their smallest
 * distance within one attribute (capped at 8, reversed order costing one more, floored at `minProximity`).
 */
import type { RuleFactory } from '../rule.ts';

export const proximityRule: RuleFactory = (context) => {
  if (context.words.length < 2) return null;
  const { scanner } = context;
  if (!context.verify) return { name: 'proximity', key: (doc) => scanner.proximityOf(doc) };
  return {
    name: 'proximity',
    key(doc) {
      scanner.scan(doc);
      return scanner.proximity[doc];
    },
  };
};
