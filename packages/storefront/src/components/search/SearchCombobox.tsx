/**
 * The search box with a dropdown of recent searches and query suggestions, following the ARIA combobox pattern
 * (role=combobox on the input, a listbox of options, aria-activedescendant for the option under the arrow keys).
 * The input is `ShopSearchBox` (react-instantsearch's `useSearchBox` with the stock markup, texts and 512
 * characters); this component only adds the ARIA attributes and key handling through `inputProps`, and the list.
 *
 * Keys: ↓/↑ move through the options (and back to the text), Enter runs the active option (or the typed text),
 * Escape closes the list, Delete removes the active recent search.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { FocusEvent, KeyboardEvent } from 'react';
import { useInstantSearch } from 'react-instantsearch';
import { useServices } from '../../app/services.ts';
import { categoryAttributes } from '../../lib/catalog.ts';
import { buildOptions, clampActive, moveActive, optionId } from '../../lib/combobox.ts';
import type { ComboboxOption } from '../../lib/combobox.ts';
import { splitHighlight } from '../../lib/highlight.ts';
import { addRecentSearch, matchingRecentSearches, readRecentSearches, removeRecentSearch } from '../../lib/recent-searches.ts';
import { fetchSuggestions } from '../../lib/suggestions.ts';
import { ShopSearchBox } from './ShopSearchBox.tsx';
import type { QuerySuggestion } from '../../lib/suggestions.ts';

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

function Highlighted({ value }: { value: string }) {
  return (
    <>
      {splitHighlight(value).map((part, index) => (part.highlighted ? <mark key={index}>{part.value}</mark> : <span key={index}>{part.value}</span>))}
    </>
  );
}

function optionLabel(option: ComboboxOption) {
  switch (option.kind) {
    case 'recent':
      return <span className="vt-suggestion-text">{option.query}</span>;
    case 'suggestion':
      return (
        <span className="vt-suggestion-text">
          <Highlighted value={option.highlighted} />
        </span>
      );
    case 'category':
      return (
        <span className="vt-suggestion-text vt-suggestion-category">
          {option.query} <span className="vt-suggestion-in">in {option.category}</span>
        </span>
      );
  }
}

/** The search box's typed text drives suggestions; a fetch that comes back after a newer one is dropped. */
function useSuggestions(typed: string, open: boolean): QuerySuggestion[] {
  const { config, searchClient } = useServices();
  const [suggestions, setSuggestions] = useState<QuerySuggestion[]>([]);
  useEffect(() => {
    if (!open || !config.querySuggestions.enabled) return;
    let current = true;
    fetchSuggestions(searchClient, { indexName: config.querySuggestions.indexName, sourceIndex: config.indexName, typed }).then(
      (list) => {
        if (current) setSuggestions(list);
      },
      () => {
        // No suggestions index yet (a new shop), or the network: the box works without suggestions.
        if (current) setSuggestions([]);
      },
    );
    return () => {
      current = false;
    };
  }, [typed, open, searchClient, config.querySuggestions.enabled, config.querySuggestions.indexName, config.indexName]);
  return suggestions;
}

export function SearchCombobox({ placeholder }: { placeholder: string }) {
  const { indexUiState, setIndexUiState } = useInstantSearch();
  const listId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const [typed, setTyped] = useState(indexUiState.query ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [recent, setRecent] = useState<string[]>(() => readRecentSearches(storage()));
  const suggestions = useSuggestions(typed, open);
  const options = useMemo(() => buildOptions(matchingRecentSearches(recent, typed), suggestions), [recent, typed, suggestions]);
  const activeIndex = clampActive(active, options.length);
  const expanded = open && options.length > 0;

  const input = () => rootRef.current?.querySelector<HTMLInputElement>('.ais-SearchBox-input') ?? null;

  const run = (option: ComboboxOption) => {
    setRecent(addRecentSearch(storage(), option.query));
    setTyped(option.query);
    setOpen(false);
    setActive(-1);
    setIndexUiState((previous) => {
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
            setTyped(event.currentTarget.value);
            setRecent(readRecentSearches(storage()));
            setOpen(true);
          },
          onBlur: (event: FocusEvent<HTMLInputElement>) => {
            // Clicks inside the list keep the focus (mousedown is prevented there), so a blur means "left".
            if (!rootRef.current?.contains(event.relatedTarget)) {
              setOpen(false);
              setActive(-1);
            }
          },
        }}
      />
      <div className="vt-suggestions" hidden={!expanded}>
        <ul id={listId} role="listbox" aria-label="Search suggestions" className="vt-suggestions-list">
          {options.map((option, index) => (
            <li
              key={`${option.kind}:${option.query}`}
              id={optionId(listId, index)}
              role="option"
              aria-selected={index === activeIndex}
              className={`vt-suggestion vt-suggestion--${option.kind}${index === activeIndex ? ' vt-suggestion--active' : ''}`}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => run(option)}
              onMouseMove={() => index !== activeIndex && setActive(index)}
            >
              {option.kind === 'recent' && (
                <span className="vt-suggestion-kind" aria-hidden="true">
                  ↺
                </span>
              )}
              {optionLabel(option)}
              {option.kind === 'recent' && (
                <>
                  <span className="vt-sr-only">, recent search, Delete to remove</span>
                  {/* Mouse-only: the option itself is the keyboard target (Delete removes it), and a button
                      inside an option would be interactive content nested in interactive content. */}
                  <span
                    className="vt-suggestion-remove"
                    aria-hidden="true"
                    title={`Remove “${option.query}” from recent searches`}
                    data-remove={option.query}
                    onClick={(event) => {
                      event.stopPropagation();
                      setRecent(removeRecentSearch(storage(), option.query));
                    }}
                  >
                    ×
                  </span>
                </>
              )}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
