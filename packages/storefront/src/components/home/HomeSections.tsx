import { useInstantSearch } from 'react-instantsearch';
import { useServices } from '../../app/services.ts';
import { isHomeState } from '../../lib/recommend.ts';
import { HomeTrending } from '../recommend/HomeTrending.tsx';
import { CategoryNav } from './CategoryNav.tsx';
import { Featured } from './Featured.tsx';

/** The home page (the search page before any query or filter): categories, featured and trending products. */
export function HomeSections() {
  const { config } = useServices();
  const { indexUiState } = useInstantSearch();
  if (!isHomeState(indexUiState, config.indexName)) return null;
  return (
    <div className="vt-home">
      <CategoryNav />
      <Featured />
      <HomeTrending />
    </div>
  );
}
