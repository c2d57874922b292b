/**
 * The search box: react-instantsearch's `useSearchBox` with the stock widget's markup, classes and texts
 * (512 characters, "Submit the search query", "Clear the search query", the loading indicator once a search is
 * stalled). It is our own component for two reasons. First, the stock box shows the query of the last *successful*
 * search whenever it loses focus, and after a failed search InstantSearch restores that older state, so a
 * shopper who typed "lamp desk" while the server was down would see "lamp" again. This box keeps the text.
 * Second, it moves InstantSearch's render of the loading status after the request (`lib/loading-render.ts`), so
 * each key can refine at once.
 */
import { useEffect, useRef, useState } from 'react';
import type { FormEvent, InputHTMLAttributes } from 'react';
import { useInstantSearchContext, useSearchBox } from 'react-instantsearch';
import { maxQueryLength } from '../../lib/search-state.ts';
import { renderLoadingAfterRequest, type LoadingRenderDeferral } from '../../lib/loading-render.ts';
import { keyTyped } from '../../lib/typing-pause.ts';

export interface ShopSearchBoxProps {
  placeholder: string;
  inputProps?: InputHTMLAttributes<HTMLInputElement>;
}

export function ShopSearchBox({ placeholder, inputProps }: ShopSearchBoxProps) {
  const { query, refine, isSearchStalled } = useSearchBox({}, { $$widgetType: 'ais.searchBox' });
  // The status as of this render: `useSearchBox` renders the box whenever it changes (not `useInstantSearch()`,
  // which would render it on every render of every search).
  const search = useInstantSearchContext();
  const { status } = search;
  const [value, setValue] = useState(query);
  const inputRef = useRef<HTMLInputElement>(null);
  // Each key refines at once, from its input event: the request leaves within the event, and InstantSearch's
  // render of the loading status for that search waits for the answer (`lib/loading-render.ts`), so React has
  // nothing of the page to render inside the event.
  const deferral = useRef<LoadingRenderDeferral | null>(null);
  useEffect(() => {
    const installed = renderLoadingAfterRequest(search);
    deferral.current = installed;
    return () => installed.uninstall();
  }, [search]);

  // Follow the search state (back/forward, a suggestion, the logo) unless the shopper is typing, or the last
  // search failed: then `query` is the older state InstantSearch fell back to, not what the shopper wants.
  const typing = typeof document !== 'undefined' && document.activeElement === inputRef.current;
  if (query !== value && status !== 'error' && !typing) setValue(query);

  // A server-rendered page shows this box before its script runs: what a shopper typed meanwhile is in the DOM
  // but not in the search state. Search it once the box is live (a client-rendered box starts equal: no-op).
  useEffect(() => {
    const typed = inputRef.current?.value;
    if (typed === undefined || typed === query) return;
    setValue(typed);
    refine(typed);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the box becomes live
  }, []);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    event.stopPropagation();
    inputRef.current?.blur();
  };
  const reset = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    event.stopPropagation();
    setValue('');
    refine('');
    inputRef.current?.focus();
  };

  return (
    <div className="ais-SearchBox">
      <form action="" className="ais-SearchBox-form" noValidate role="search" onSubmit={submit} onReset={reset}>
        <input
          {...inputProps}
          ref={inputRef}
          className="ais-SearchBox-input"
          aria-label="Search"
          autoComplete="off"
          autoCorrect="off"
          autoCapitalize="off"
          placeholder={placeholder}
          spellCheck={false}
          maxLength={maxQueryLength}
          type="search"
          value={value}
          onChange={(event) => {
            keyTyped();
            setValue(event.currentTarget.value);
            deferral.current?.arm();
            refine(event.currentTarget.value);
          }}
        />
        <button className="ais-SearchBox-submit" type="submit" title="Submit the search query" aria-label="Submit the search query">
          <svg className="ais-SearchBox-submitIcon" width="10" height="10" viewBox="0 0 40 40" aria-hidden="true">
            <path d="M26.804 29.01c-2.832 2.34-6.465 3.746-10.426 3.746C7.333 32.756 0 25.424 0 16.378 0 7.333 7.333 0 16.378 0c9.046 0 16.378 7.333 16.378 16.378 0 3.96-1.406 7.594-3.746 10.426l10.534 10.534c.607.607.61 1.59-.004 2.202-.61.61-1.597.61-2.202.004L26.804 29.01zm-10.426.627c7.323 0 13.26-5.936 13.26-13.26 0-7.32-5.937-13.257-13.26-13.257C9.056 3.12 3.12 9.056 3.12 16.378c0 7.323 5.936 13.26 13.258 13.26z" />
          </svg>
        </button>
        <button
          className="ais-SearchBox-reset"
          type="reset"
          title="Clear the search query"
          aria-label="Clear the search query"
          hidden={value.length === 0 || isSearchStalled}
        >
          <svg className="ais-SearchBox-resetIcon" viewBox="0 0 20 20" width="10" height="10" aria-hidden="true">
            <path d="M8.114 10L.944 2.83 0 1.885 1.886 0l.943.943L10 8.113l7.17-7.17.944-.943L20 1.886l-.943.943-7.17 7.17 7.17 7.17.943.944L18.114 20l-.943-.943-7.17-7.17-7.17 7.17-.944.943L0 18.114l.943-.943L8.113 10z" />
          </svg>
        </button>
        <span className="ais-SearchBox-loadingIndicator" hidden={!isSearchStalled}>
          <svg className="ais-SearchBox-loadingIcon" width="16" height="16" viewBox="0 0 38 38" stroke="#444" aria-hidden="true">
            <g fill="none" fillRule="evenodd">
              <g transform="translate(1 1)" strokeWidth="2">
                <circle strokeOpacity=".5" cx="18" cy="18" r="18" />
                <path d="M36 18c0-9.94-8.06-18-18-18">
                  <animateTransform attributeName="transform" type="rotate" from="0 18 18" to="360 18 18" dur="1s" repeatCount="indefinite" />
                </path>
              </g>
            </g>
          </svg>
        </span>
      </form>
    </div>
  );
}
