/**
 * The active refinements of the search state as a flat list, each able to remove itself, and the search
 * parameters a state stands for. The no-results page uses both: one query per refinement, without it, tells
 * the shopper which filter to drop.
 */
import { categoryAttributes, categorySeparator } from './catalog.ts';
import type { StorefrontIndexUiState } from './search-state.ts';

export interface ActiveRefinement {
  /** Stable identity for React keys and result lookups. */
  key: string;
  /** What the shopper sees: "Brand: Acme", "Price: 10 – 200". */
  label: string;
  /** The same state without this refinement (nothing else changes, the page goes back to the first). */
  remove(state: StorefrontIndexUiState): StorefrontIndexUiState;
}

const lvl0 = categoryAttributes[0];

function withoutPage(state: StorefrontIndexUiState): StorefrontIndexUiState {
  const { page: _page, ...rest } = state;
  return rest;
}

function listAttribute(attribute: 'brand' | 'color', label: string, state: StorefrontIndexUiState): ActiveRefinement[] {
  return (state.refinementList?.[attribute] ?? []).map((value) => ({
    key: `${attribute}:${value}`,
    label: `${label}: ${value}`,
    remove: (from) => {
      const values = (from.refinementList?.[attribute] ?? []).filter((candidate) => candidate !== value);
      return withoutPage({ ...from, refinementList: { ...from.refinementList, [attribute]: values } });
    },
  }));
}

/** Formats a price for labels (the shop's currency and locale); plain numbers when none is given. */
export type PriceFormatter = (value: number) => string;

function rangeLabel(range: string, formatPrice: PriceFormatter): string {
  const [min = '', max = ''] = range.split(':');
  const price = (text: string) => formatPrice(Number(text));
  if (min && max) return `${price(min)} – ${price(max)}`;
  return min ? `≥ ${price(min)}` : `≤ ${price(max)}`;
}

function rangeAttribute(attribute: 'price' | 'rating', state: StorefrontIndexUiState, formatPrice: PriceFormatter): ActiveRefinement[] {
  const range = state.range?.[attribute];
  if (!range || range === ':') return [];
  const label = attribute === 'rating' ? `Rating: ${range.split(':')[0]} & up` : `Price: ${rangeLabel(range, formatPrice)}`;
  return [
    {
      key: `${attribute}:${range}`,
      label,
      remove: (from) => {
        const { [attribute]: _removed, ...rest } = from.range ?? {};
        return withoutPage({ ...from, range: rest });
      },
    },
  ];
}

export function listRefinements(state: StorefrontIndexUiState, formatPrice: PriceFormatter = String): ActiveRefinement[] {
  const refinements: ActiveRefinement[] = [];
  const category = state.hierarchicalMenu?.[lvl0];
  if (category?.length) {
    refinements.push({
      key: `category:${category.join(categorySeparator)}`,
      label: `Category: ${category.join(' › ')}`,
      remove: (from) => {
        const { [lvl0]: _removed, ...rest } = from.hierarchicalMenu ?? {};
        return withoutPage({ ...from, hierarchicalMenu: rest });
      },
    });
  }
  refinements.push(...listAttribute('brand', 'Brand', state), ...listAttribute('color', 'Color', state));
  refinements.push(...rangeAttribute('price', state, formatPrice), ...rangeAttribute('rating', state, formatPrice));
  if (state.toggle?.free_shipping) {
    refinements.push({
      key: 'free_shipping',
      label: 'Free shipping',
      remove: (from) => {
        const { free_shipping: _removed, ...rest } = from.toggle ?? {};
        return withoutPage({ ...from, toggle: rest });
      },
    });
  }
  return refinements;
}

/** A facet filter for one value; a leading '-' would read as a negation, so it is escaped. */
function facetFilter(attribute: string, value: string): string {
  return `${attribute}:${value.startsWith('-') ? `\\${value}` : value}`;
}

export interface PlainSearchParams {
  query: string;
  facetFilters: string[][];
  numericFilters: string[];
}

/** The search parameters a UI state stands for (refinement lists are ORed within, everything else ANDed). */
export function searchParamsFor(state: StorefrontIndexUiState): PlainSearchParams {
  const facetFilters: string[][] = [];
  const numericFilters: string[] = [];
  const category = state.hierarchicalMenu?.[lvl0];
  if (category?.length) {
    const level = Math.min(category.length, categoryAttributes.length) - 1;
    facetFilters.push([facetFilter(categoryAttributes[level], category.slice(0, level + 1).join(categorySeparator))]);
  }
  for (const attribute of ['brand', 'color'] as const) {
    const values = state.refinementList?.[attribute] ?? [];
    if (values.length) facetFilters.push(values.map((value) => facetFilter(attribute, value)));
  }
  for (const attribute of ['price', 'rating'] as const) {
    const [min = '', max = ''] = (state.range?.[attribute] ?? '').split(':');
    if (min !== '' && Number.isFinite(Number(min))) numericFilters.push(`${attribute}>=${Number(min)}`);
    if (max !== '' && Number.isFinite(Number(max))) numericFilters.push(`${attribute}<=${Number(max)}`);
  }
  if (state.toggle?.free_shipping) facetFilters.push(['free_shipping:true']);
  return { query: state.query ?? '', facetFilters, numericFilters };
}
