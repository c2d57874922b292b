import { useInstantSearchContext } from 'react-instantsearch';
import { categoryAttributes } from '../../lib/catalog.ts';
import { categorySuggestions } from '../../lib/query-categories.ts';
import { indexUiStateOf, useSearchValue } from './use-search-value.ts';

/**
 * "In <category>" links above the results of a query, from the categories its shoppers went to (the server's
 * query categorization); a click refines the category menu. Not shown once a category is chosen.
 */
export function CategorySuggestions() {
  const search = useInstantSearchContext();
  // Rendered again with new results or a category chosen, not when a search starts.
  const results = useSearchValue((instance) => instance.mainIndex.getResults());
  const chosen = useSearchValue((instance) => indexUiStateOf(instance).hierarchicalMenu?.[categoryAttributes[0]]?.length ?? 0);
  const suggestions = results?.query ? categorySuggestions(results._rawResults?.[0]) : [];
  if (!results || suggestions.length === 0 || chosen > 0) return null;
  return (
    <nav className="vt-category-suggestions" aria-label="Categories for this search">
      {suggestions.map(({ path, label }) => (
        <button
          key={path.join('/')}
          type="button"
          className="vt-category-suggestion"
          onClick={() => search.mainIndex.setIndexUiState((previous) => ({ ...previous, page: undefined, hierarchicalMenu: { ...previous.hierarchicalMenu, [categoryAttributes[0]]: path } }))}
        >
          “{results.query}” in {label}
        </button>
      ))}
    </nav>
  );
}
