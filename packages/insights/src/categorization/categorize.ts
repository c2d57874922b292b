/**
 * The categories a query leads to, from the records its shoppers engaged with (`engagement.ts`) and their
 * hierarchical category values (the shop's category levels, broadest first):
 * - each level's values are weighed by the engagement of the records carrying them; a value's **share** is its
 *   weight over the weight of the records that have a category at all;
 * - the **prediction** is the path down to the deepest level whose leading value holds at least half the weight
 *   (and lies under the level above's); other broadest-level values holding at least `OTHER_SHARE` are predicted
 *   too, each down to its own deepest such level;
 * - a prediction's **bin** follows its share: ≥ 0.9 certain, ≥ 0.75 very high, ≥ 0.5 high, ≥ 0.25 low, else
 *   very low;
 * - the query's **type**: none without a category; ambiguous when several broadest values hold `OTHER_SHARE`;
 *   narrow when one path reaches below the broadest level with a high bin or better; broad otherwise.
 * Under `MIN_WEIGHT` of engagement, nothing is predicted (`{}`, as Algolia answers a query it cannot categorise).
 */
import type { CategoryBin, CategoryPrediction, QueryCategorization } from '@vitrine/protocol';

export const MIN_WEIGHT = 5;
export const OTHER_SHARE = 0.25;

export function binOf(share: number): CategoryBin {
  return share >= 0.9 ? 'certain' : share >= 0.75 ? 'very high' : share >= 0.5 ? 'high' : share >= 0.25 ? 'low' : 'very low';
}

/** One engaged record: its weight and its category value at each level (undefined past its depth). */
export interface EngagedRecord {
  weight: number;
  path: Array<string | undefined>;
}

export function categorize(query: string, count: number, records: readonly EngagedRecord[], levels: readonly string[]): QueryCategorization {
  const categorised = records.filter((record) => record.path[0] !== undefined);
  const total = categorised.reduce((sum, record) => sum + record.weight, 0);
  if (total < MIN_WEIGHT) return {};
  const share = (depth: number, value: string, within: readonly EngagedRecord[]) =>
    within.reduce((sum, record) => sum + (record.path[depth] === value ? record.weight : 0), 0) / total;
  const broadest = new Map<string, number>();
  for (const record of categorised) broadest.set(record.path[0]!, (broadest.get(record.path[0]!) ?? 0) + record.weight);
  const tops = [...broadest].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const predicted = tops.filter(([, weight], i) => i === 0 || weight / total >= OTHER_SHARE);
  const categories: Array<CategoryPrediction & { share: number }> = predicted.map(([value]) => {
    let within = categorised.filter((record) => record.path[0] === value);
    const hierarchyPath = [{ facetName: levels[0], facetValue: value, depth: 0 }];
    let last = share(0, value, within);
    for (let depth = 1; depth < levels.length; depth++) {
      const weights = new Map<string, number>();
      for (const record of within) if (record.path[depth] !== undefined) weights.set(record.path[depth]!, (weights.get(record.path[depth]!) ?? 0) + record.weight);
      const [best] = [...weights].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      if (best === undefined || best[1] / total < 0.5) break;
      hierarchyPath.push({ facetName: levels[depth], facetValue: best[0], depth });
      within = within.filter((record) => record.path[depth] === best[0]);
      last = share(depth, best[0], within);
    }
    return { bin: binOf(last), hierarchyPath, share: last };
  });
  const type = categories.length > 1 ? 'ambiguous' : categories[0].hierarchyPath.length > 1 && categories[0].share >= 0.5 ? 'narrow' : 'broad';
  return { normalizedQuery: query, count, type, categories: categories.map(({ bin, hierarchyPath }) => ({ bin, hierarchyPath })) };
}
