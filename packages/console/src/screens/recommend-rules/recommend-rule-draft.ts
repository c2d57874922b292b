/** Recommend rules in the console: the models they exist for, a new rule's starting JSON, and one-line summaries. */
import type { RecommendModels, RecommendRule } from 'algoliasearch';

/** The models rules exist for (Algolia's spec: `looking-similar` takes none), as the console names them. */
export const recommendRuleModels: Array<{ model: RecommendModels; label: string }> = [
  { model: 'related-products', label: 'Related products' },
  { model: 'bought-together', label: 'Frequently bought together' },
  { model: 'trending-items', label: 'Trending items' },
  { model: 'trending-facets', label: 'Trending facet values (stored, not applied)' },
];

/** A rule that applies to every recommendation of its model, with nothing pinned or hidden yet. */
export function newRecommendRule(): RecommendRule {
  return { objectID: `rr-${Date.now()}`, description: '', enabled: true, consequence: { promote: [], hide: [] } };
}

/** When the rule applies, in one line. */
export function conditionSummary(rule: RecommendRule): string {
  const parts: string[] = [];
  if (rule.condition?.filters) parts.push(`viewed item matches ${rule.condition.filters}`);
  if (rule.condition?.context) parts.push(`context ${rule.condition.context}`);
  return parts.length > 0 ? parts.join('; ') : 'every recommendation';
}

/** What the rule does, in one line. */
export function consequenceSummary(rule: RecommendRule): string {
  const { promote = [], hide = [], params = {} } = rule.consequence ?? {};
  const parts: string[] = [];
  if (promote.length > 0) parts.push(`pins ${promote.map((pin) => `${pin.objectID}@${pin.position}`).join(', ')}`);
  if (hide.length > 0) parts.push(`hides ${hide.map((item) => item.objectID).join(', ')}`);
  if (params.filters) parts.push(`filters ${params.filters}`);
  if (params.automaticFacetFilters?.length) parts.push(`${params.automaticFacetFilters.map((f) => `${f.negative ? 'another' : 'same'} ${f.facet}`).join(', ')} as the viewed item`);
  if (params.optionalFilters?.length) parts.push(`boosts/buries ${params.optionalFilters.join(', ')}`);
  return parts.join('; ') || 'nothing yet';
}
