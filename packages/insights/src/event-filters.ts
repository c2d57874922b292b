/**
 * The `filters` of Insights events, read as Algolia's own widgets write them (URL-encoded, stored decoded): a
 * facet filter `attribute:value` (RefinementList, Menu, HierarchicalMenu, ToggleRefinement) or a numeric filter
 * `attribute>=4` (RatingMenu), with the operators of the search API's numeric filters.
 */
export type EventFilterOperator = ':' | '<' | '<=' | '=' | '!=' | '>' | '>=';

export interface EventFilter {
  attribute: string;
  operator: EventFilterOperator;
  value: string;
}

// The attribute holds no colon, so `category:5>=4` stays a facet filter (value `5>=4`); the number is a decimal.
const NUMERIC = /^([^:<>=!]+?)\s*(<=|>=|!=|<|>|=)\s*(-?(?:\d+(?:\.\d*)?|\.\d+))$/;

/** The decoded filter's parts; null when it is neither form. */
export function parseEventFilter(decoded: string): EventFilter | null {
  const numeric = NUMERIC.exec(decoded);
  if (numeric) return { attribute: numeric[1].trim(), operator: numeric[2] as EventFilterOperator, value: numeric[3] };
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { attribute: decoded.slice(0, colon), operator: ':', value: decoded.slice(colon + 1) };
}

/**
 * The key of a facet filter's value in the models' counts (`attribute\u0000value`); null for a numeric filter,
 * which names a range rather than a facet value, and for neither form.
 */
export function facetKeyOf(decoded: string): string | null {
  const filter = parseEventFilter(decoded);
  return filter?.operator === ':' ? `${filter.attribute}\u0000${filter.value}` : null;
}

