/**
 * The search box with a dropdown of recent searches and query suggestions, following the ARIA combobox pattern
 * (role=combobox on the input, a listbox of options, aria-activedescendant for the option under the arrow keys).
 * The input is `ShopSearchBox` (react-instantsearch's `useSearchBox` with the stock markup, texts and 512
 * characters); this component only adds the ARIA attributes and key handling through `inputProps`, and the list.
 *
 * Beside the queries, a group of products (image, name, price) for the typed text; choosing one opens its page.
 * Suggestions and products come in the page's own search requests, one per keystroke (`lib/dropdown-search.ts`).
 *
 * Keys: ↓/↑ move through the options (and back to the text), Enter runs the active option (or the typed text),
 * Escape closes the list, Delete removes the active recent search.
 */
import { startTransition, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { FocusEvent, KeyboardEvent } from 'react';
import { useInstantSearchContext } from 'react-instantsearch';
import { categoryAttributes, productPath } from '../../lib/catalog.ts';
import { buildOptions, clampActive, moveActive, optionId } from '../../lib/combobox.ts';
import type { ComboboxOption } from '../../lib/combobox.ts';
import { navigate } from '../../lib/navigation.ts';
import type { DropdownResults, DropdownSearch } from '../../lib/dropdown-search.ts';
import { addRecentSearch, matchingRecentSearches, readRecentSearches, removeRecentSearch } from '../../lib/recent-searches.ts';
import { ShopSearchBox } from './ShopSearchBox.tsx';
import { SuggestionOption } from './SuggestionOption.tsx';

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/**
 * The dropdown's answers as they arrive, with the page's results. A transition, not `useSyncExternalStore`: a
 * store's update is rendered at once, ahead of the results; as a transition, the results are rendered first
 * and the dropdown right after. Each answer shown leaves a `vitrine:dropdown` mark (the keystroke benchmark
 * reads it beside `vitrine:results`).
 */
function useDropdownResults(dropdown: DropdownSearch): DropdownResults {
  const [results, setResults] = useState(() => dropdown.current());
  useEffect(() => dropdown.subscribe((next) => startTransition(() => setResults(next))), [dropdown]);
  useEffect(() => {
    if (results.query !== undefined) performance.mark('vitrine:dropdown', { detail: { query: results.query } });
  }, [results]);
  return results;
}

export function SearchCombobox({ placeholder, dropdown }: { placeholder: string; dropdown: DropdownSearch }) {
  // The instance rather than `useInstantSearch()`, which would render the combobox and its options again on
  // every render of every search (two per keystroke); the box follows the query through `useSearchBox`.
  const search = useInstantSearchContext();
  const listId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const [typed, setTyped] = useState(() => search.mainIndex.getHelper()?.state.query ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [recent, setRecent] = useState<string[]>(() => readRecentSearches(storage()));
  const { suggestions, products } = useDropdownResults(dropdown);
  const options = useMemo(() => buildOptions(matchingRecentSearches(recent, typed), suggestions, products), [recent, typed, suggestions, products]);
  const queryIndexes = options.flatMap((option, index) => (option.kind === 'product' ? [] : [index]));
  const productIndexes = options.flatMap((option, index) => (option.kind === 'product' ? [index] : []));
  const activeIndex = clampActive(active, options.length);
  const expanded = open && options.length > 0;

  const input = () => rootRef.current?.querySelector<HTMLInputElement>('.ais-SearchBox-input') ?? null;

  const run = (option: ComboboxOption) => {
    if (option.kind === 'product') {
      setOpen(false);
      setActive(-1);
      navigate(productPath(option.product));
      return;
    }
    setRecent(addRecentSearch(storage(), option.query));
    setTyped(option.query);
    setOpen(false);
    setActive(-1);
    search.mainIndex.setIndexUiState((previous) => {
      const next = { ...previous, query: option.query, page: undefined };
      if (option.kind === 'category') next.hierarchicalMenu = { ...previous.hierarchicalMenu, [categoryAttributes[0]]: [option.category] };
      return next;
    });
    // The stock box keeps its own text while focused; letting go of the focus shows the chosen query.
    input()?.blur();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) {
        setOpen(true);
        return;
      }
      setActive(moveActive(activeIndex, options.length, event.key));
    } else if (event.key === 'Escape' && expanded) {
      // Closing the list comes first; a second Escape clears the box as the browser does.
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    } else if (event.key === 'Enter' && expanded && activeIndex >= 0) {
      event.preventDefault();
      run(options[activeIndex]);
    } else if (event.key === 'Delete' && expanded && options[activeIndex]?.kind === 'recent') {
      event.preventDefault();
      setRecent(removeRecentSearch(storage(), options[activeIndex].query));
    } else if (event.key === 'Enter') {
      // The form submits: remember the typed query (the stock box blurs itself after submit).
      setRecent(addRecentSearch(storage(), event.currentTarget.value));
      setOpen(false);
    }
  };

  return (
    <div className="vt-combobox" ref={rootRef}>
      <ShopSearchBox
        placeholder={placeholder}
        inputProps={{
          role: 'combobox',
          'aria-expanded': expanded,
          'aria-controls': listId,
          'aria-autocomplete': 'list',
          'aria-activedescendant': expanded && activeIndex >= 0 ? optionId(listId, activeIndex) : undefined,
          onKeyDown,
          onInput: (event) => {
            setTyped(event.currentTarget.value);
            setOpen(true);
            setActive(-1);
          },
          onFocus: (event) => {
            // From now on the page's searches carry the dropdown's; the text already there gets its own.
            dropdown.setActive(true);
            void dropdown.fetch(event.currentTarget.value);
            setTyped(event.currentTarget.value);
            setRecent(readRecentSearches(storage()));
            setOpen(true);
          },
          onBlur: (event: FocusEvent<HTMLInputElement>) => {
            dropdown.setActive(false);
            // Clicks inside the list keep the focus (mousedown is prevented there), so a blur means "left".
            if (!rootRef.current?.contains(event.relatedTarget)) {
              setOpen(false);
              setActive(-1);
            }
          },
        }}
      />
      <div className={products.length > 0 ? 'vt-suggestions vt-suggestions--with-products' : 'vt-suggestions'} hidden={!expanded}>
        <div id={listId} role="listbox" aria-label="Search suggestions" className="vt-suggestions-list">
          {[
            { title: 'Searches', indexes: queryIndexes },
            { title: 'Products', indexes: productIndexes },
          ].map(({ title, indexes }) =>
            indexes.length === 0 ? null : (
              <div key={title} role="group" aria-labelledby={`${listId}-${title}`} className={`vt-suggestion-group vt-suggestion-group--${title.toLowerCase()}`}>
                <div role="presentation" id={`${listId}-${title}`} className="vt-suggestion-group-title">
                  {title}
                </div>
                {indexes.map((index) => (
                  <SuggestionOption
                    key={`${options[index].kind}:${options[index].query}:${index}`}
                    id={optionId(listId, index)}
                    option={options[index]}
                    active={index === activeIndex}
                    onChoose={() => run(options[index])}
                    onHover={() => index !== activeIndex && setActive(index)}
                    onRemove={(query) => setRecent(removeRecentSearch(storage(), query))}
                  />
                ))}
              </div>
            ),
          )}
        </div>
      </div>
    </div>
  );
}
