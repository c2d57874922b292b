/**
 * One value read from the search, a component rendered again only when it changes. `useInstantSearch()`
 * renders its component on every render of every search (two a keystroke: loading, then results), and with it
 * every child the component creates: the filters' panels and widgets, the Configure widget; most of them only
 * need a yes or no (no results, the home page, an error) or the department.
 */
import { useEffect, useRef, useState } from 'react';
import { useInstantSearchContext } from 'react-instantsearch';
import type { IndexUiState, InstantSearch, UiState } from 'instantsearch.js';

/** `select` should return a primitive (or the same object while nothing changed): values compare with `Object.is`. */
export function useSearchValue<T>(select: (search: InstantSearch) => T): T {
  const search = useInstantSearchContext();
  const selectRef = useRef(select);
  selectRef.current = select;
  const [value, setValue] = useState(() => select(search));
  useEffect(() => {
    const update = () => setValue(selectRef.current(search));
    search.addListener('render', update);
    // What changed between the first render and now (hydration, a search answered meanwhile).
    update();
    return () => {
      search.removeListener('render', update);
    };
  }, [search]);
  return value;
}

/**
 * The main index's UI state, as `useInstantSearch().indexUiState` gives it, without `getUiState()`'s refresh
 * (every widget asked again): the index keeps it current on each change of the search parameters.
 */
export function indexUiStateOf(search: InstantSearch): IndexUiState {
  const none: UiState = {};
  return search.mainIndex.getWidgetUiState(none)[search.mainIndex.getIndexId()] ?? {};
}

/** No hits in a real answer (not the placeholder InstantSearch shows before the first one). */
export function hasNoResults(search: InstantSearch): boolean {
  const results = search.mainIndex.getResults();
  return results !== null && !results.__isArtificial && results.nbHits === 0;
}
