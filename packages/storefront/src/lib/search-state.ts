/**
 * The search page's state as the storefront's components and helpers see it: InstantSearch's index UI state with
 * the storefront's own keys. Here, below the components, so they and `lib` read the state without knowing how
 * the URL carries it (`routing.ts`, at the top, maps the two).
 */
import type { IndexUiState } from 'instantsearch.js';

export type ViewMode = 'pages' | 'infinite';

/** The index UI state with the storefront's own `view` key (owned by the view-mode widget). */
export type StorefrontIndexUiState = IndexUiState & { view?: ViewMode };

/** The longest query the search box takes and a URL may carry (characters). */
export const maxQueryLength = 512;
