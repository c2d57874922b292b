import { useInstantSearch } from 'react-instantsearch';
import { useServices } from '../../lib/services.ts';
import { categoryAttributes } from '../../lib/catalog.ts';

/** The top-level categories as links (`/c/<slug>`); a plain click refines the search in place. */
export function CategoryNav() {
  const { categories } = useServices();
  const { setIndexUiState } = useInstantSearch();
  if (categories.length === 0) return null;
  return (
    <nav className="vt-home-section vt-category-nav" aria-labelledby="vt-category-nav-title">
      <h2 id="vt-category-nav-title">Shop by category</h2>
      <ul>
        {categories.map((category) => (
          <li key={category.slug}>
            <a
              href={`/c/${encodeURIComponent(category.slug)}`}
              onClick={(event) => {
                if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
                event.preventDefault();
                setIndexUiState((previous) => ({ ...previous, hierarchicalMenu: { [categoryAttributes[0]]: [category.name] }, page: undefined }));
              }}
            >
              {category.name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
