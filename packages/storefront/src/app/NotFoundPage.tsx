/** An address the shop does not have (a path, a category or a product): says so, and offers a search. */
import { HeaderSearch } from '../components/layout/HeaderSearch.tsx';
import { handleLinkClick } from '../lib/navigation.ts';
import { pageTitles, useDocumentTitle } from '../lib/page-titles.ts';

export function NotFoundPage({ what = 'page' }: { what?: 'page' | 'product' }) {
  useDocumentTitle(what === 'product' ? pageTitles.missingProduct : pageTitles.notFound);
  return (
    <section className="vt-not-found">
      <h1>{what === 'product' ? 'Product not found' : 'Page not found'}</h1>
      <p>
        {what === 'product' ? 'It may have been removed from the catalogue.' : 'There is nothing at this address.'} Search the
        shop instead, or <a href="/" onClick={(event) => handleLinkClick(event, '/')}>go to the home page</a>.
      </p>
      <div className="vt-not-found-search">
        <HeaderSearch />
      </div>
    </section>
  );
}
