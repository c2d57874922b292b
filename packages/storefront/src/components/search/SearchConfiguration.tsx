import { Configure } from 'react-instantsearch';
import { categoryAttributes } from '../../lib/catalog.ts';
import { categoryRuleContext } from '../../lib/rules.ts';
import { indexUiStateOf, useSearchValue } from './use-search-value.ts';

/**
 * The search page's fixed search parameters, in one Configure widget (a second one would fight it over the
 * shared `configure` state). Searches within a department carry its rule context (`category-<slug>`), so
 * merchandising rules written for that department (a boosted brand, a banner) apply on its category pages.
 * `distinct`: variants of one model (records sharing the index's attributeForDistinct, `groupID` in the demo)
 * show once in the results; the product page lists them. Without that setting it changes nothing.
 */
/**
 * Query categorization (the server's, or Algolia's when it is on): the "in <category>" links above the results.
 * A parameter the helper passes on unknown to its types, so spread rather than written as a prop.
 */
const categoriesRetrieval = { extensions: { queryCategorization: { enableCategoriesRetrieval: true } } } as Record<string, unknown>;
/**
 * A shop that turns on both dynamic re-ranking and personalization wants both on a shopper's search: without
 * this, a shopper with a profile gets personalization alone (the API's default). Changes nothing when either is off.
 */
const learningTogether = { allowReRankingOnPersonalization: true } as Record<string, unknown>;

export function SearchConfiguration() {
  // Rendered again when the department changes, not on every search (Configure compares its props each time).
  const department = useSearchValue((search) => indexUiStateOf(search).hierarchicalMenu?.[categoryAttributes[0]]?.[0]);
  return (
    <Configure
      attributesToSnippet={['description:24']}
      snippetEllipsisText="…"
      distinct
      {...categoriesRetrieval}
      {...learningTogether}
      {...(department ? { ruleContexts: [categoryRuleContext(department)] } : {})}
    />
  );
}
