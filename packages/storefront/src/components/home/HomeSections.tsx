import { useInstantSearch } from 'react-instantsearch';
import { useServices } from '../../lib/services.ts';
import { isHomeState } from '../../lib/recommend.ts';
import { CategoryNav } from './CategoryNav.tsx';
import { Featured } from './Featured.tsx';

/**
 * The top of the home page (the search page before any query or filter): categories and featured products,
 * both in the server-rendered page. Trending items come after the results (`SearchPage`): they load once the
 * app is live, and there they move nothing the shopper sees.
 */
export function HomeSections() {
  const { config } = useServices();
  const { indexUiState } = useInstantSearch();
  if (!isHomeState(indexUiState, config.indexName)) return null;
  return (
    <div className="vt-home">
      <CategoryNav />
      <Featured />
    </div>
  );
}
