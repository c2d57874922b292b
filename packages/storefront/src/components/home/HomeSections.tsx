import { useServices } from '../../lib/services.ts';
import { isHomeState } from '../../lib/recommend.ts';
import { CategoryNav } from './CategoryNav.tsx';
import { Featured } from './Featured.tsx';
import { indexUiStateOf, useSearchValue } from '../search/use-search-value.ts';

/**
 * The top of the home page (the search page before any query or filter): categories and featured products,
 * both in the server-rendered page. Trending items come after the results (`SearchPage`): they load once the
 * app is live, and there they move nothing the shopper sees.
 */
export function HomeSections() {
  const { config } = useServices();
  const home = useSearchValue((search) => isHomeState(indexUiStateOf(search), config.indexName));
  if (!home) return null;
  return (
    <div className="vt-home">
      <CategoryNav />
      <Featured />
    </div>
  );
}
