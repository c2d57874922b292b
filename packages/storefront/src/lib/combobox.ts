/**
 * The search box's dropdown as data: which options it lists (recent searches, then query suggestions, the first
 * one also offered within its top category) and how the arrow keys move through them. Pure, so it is tested
 * without a browser; `SearchCombobox` renders it.
 */
import type { ProductPreview } from './product-previews.ts';
import type { QuerySuggestion } from './suggestions.ts';

export type ComboboxOption =
  | { kind: 'recent'; query: string }
  | { kind: 'suggestion'; query: string; highlighted: string }
  | { kind: 'category'; query: string; category: string }
  | { kind: 'product'; query: string; product: ProductPreview };

/**
 * Recent searches first (they are the shopper's own), then suggestions not already listed as recent. The first
 * suggestion is also offered within its top category, even when it is listed as a recent search. Products come
 * last (shown beside the queries), so ↓ walks through the queries first.
 */
export function buildOptions(recent: string[], suggestions: QuerySuggestion[], products: ProductPreview[] = []): ComboboxOption[] {
  const options: ComboboxOption[] = recent.map((query) => ({ kind: 'recent', query }));
  const listed = new Set(recent.map((query) => query.toLowerCase()));
  suggestions.forEach((suggestion, index) => {
    if (!listed.has(suggestion.query.toLowerCase())) {
      listed.add(suggestion.query.toLowerCase());
      options.push({ kind: 'suggestion', query: suggestion.query, highlighted: suggestion.highlighted });
    }
    // Only the first suggestion gets its category: one scoped entry helps, one per row would crowd the list.
    if (index === 0 && suggestion.category) options.push({ kind: 'category', query: suggestion.query, category: suggestion.category });
  });
  for (const product of products) options.push({ kind: 'product', query: product.name, product });
  return options;
}

/** Home and End stay with the text box (moving its caret), as in the ARIA list-autocomplete pattern. */
export type NavigationKey = 'ArrowDown' | 'ArrowUp';

/**
 * The next active option; -1 means none (the text box itself). Down and up cycle through the options and
 * the text box, so the shopper can always get back to what they typed.
 */
export function moveActive(active: number, count: number, key: NavigationKey): number {
  if (count <= 0) return -1;
  switch (key) {
    case 'ArrowDown':
      return active >= count - 1 ? -1 : active + 1;
    case 'ArrowUp':
      return active < 0 ? count - 1 : active - 1;
  }
}

/** The active index after the list changed under it: kept while still valid, else none. */
export function clampActive(active: number, count: number): number {
  return active >= 0 && active < count ? active : -1;
}

/** A stable DOM id for an option (for `aria-activedescendant`). */
export function optionId(listId: string, index: number): string {
  return `${listId}-option-${index}`;
}
