import { Configure, useInstantSearch } from 'react-instantsearch';
import { categoryAttributes } from '../../lib/catalog.ts';
import { categoryRuleContext } from '../../lib/rules.ts';

/**
 * Searches within a department carry its rule context (`category-<slug>`), so merchandising rules written for
 * that department (a boosted brand, a banner) apply on its category pages.
 */
export function CategoryRuleContext() {
  const { indexUiState } = useInstantSearch({ catchError: true });
  const department = indexUiState.hierarchicalMenu?.[categoryAttributes[0]]?.[0];
  return <Configure ruleContexts={department ? [categoryRuleContext(department)] : []} />;
}
