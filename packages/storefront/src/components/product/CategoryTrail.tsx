import type { Product } from '@vitrine/protocol';
import { useServices } from '../../lib/services.ts';
import { categorySeparator, categoryToSlugs } from '../../lib/catalog.ts';
import { handleLinkClick } from '../../lib/navigation.ts';

/** The product's category path as a breadcrumb: each level links to its category page (`/c/…`). */
export function CategoryTrail({ product }: { product: Pick<Product, 'hierarchicalCategories' | 'name'> }) {
  const { categories } = useServices();
  const levels = [product.hierarchicalCategories?.lvl2, product.hierarchicalCategories?.lvl1, product.hierarchicalCategories?.lvl0].find(Boolean);
  const names = levels ? levels.split(categorySeparator) : [];
  const slugs = categoryToSlugs(categories, names);
  return (
    <nav className="vt-trail" aria-label="Breadcrumb">
      <ol>
        <li>
          <a href="/" onClick={(event) => handleLinkClick(event, '/')}>
            Home
          </a>
        </li>
        {names.map((name, index) => {
          const href = `/c/${slugs.slice(0, index + 1).map(encodeURIComponent).join('/')}`;
          return (
            <li key={href}>
              <a href={href} onClick={(event) => handleLinkClick(event, href)}>
                {name}
              </a>
            </li>
          );
        })}
        <li aria-current="page">{product.name}</li>
      </ol>
    </nav>
  );
}
