import { useState } from 'react';
import { maxQueryLength } from '../../lib/search-state.ts';
import { navigate } from '../../lib/navigation.ts';

/**
 * The search box of pages outside the search page (product, cart, checkout): the same look and limits, and
 * submitting opens the search page with the query (`/?q=…`), where search as you type takes over.
 */
export function HeaderSearch() {
  const [text, setText] = useState('');
  return (
    <div className="ais-SearchBox">
      <form
        action="/"
        className="ais-SearchBox-form"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          const query = text.trim();
          navigate(query ? `/?${new URLSearchParams({ q: query }).toString()}` : '/');
        }}
      >
        <input
          className="ais-SearchBox-input"
          name="q"
          type="search"
          aria-label="Search"
          autoComplete="off"
          spellCheck={false}
          maxLength={maxQueryLength}
          placeholder="Search products, brands, categories…"
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
        />
        <button className="ais-SearchBox-submit" type="submit" title="Submit the search query" aria-label="Submit the search query">
          <svg className="ais-SearchBox-submitIcon" width="10" height="10" viewBox="0 0 40 40" aria-hidden="true">
            <path d="M26.804 29.01c-2.832 2.34-6.465 3.746-10.426 3.746C7.333 32.756 0 25.424 0 16.378 0 7.333 7.333 0 16.378 0c9.046 0 16.378 7.333 16.378 16.378 0 3.96-1.406 7.594-3.746 10.426l10.534 10.534c.607.607.61 1.59-.004 2.202-.61.61-1.597.61-2.202.004L26.804 29.01zm-10.426.627c7.323 0 13.26-5.936 13.26-13.26 0-7.32-5.937-13.257-13.26-13.257C9.056 3.12 3.12 9.056 3.12 16.378c0 7.323 5.936 13.26 13.258 13.26z" />
          </svg>
        </button>
      </form>
    </div>
  );
}
