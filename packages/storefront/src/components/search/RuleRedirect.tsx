import { useEffect } from 'react';
import { navigate } from '../../lib/navigation.ts';
import { resolveRuleUrl } from '../../lib/rules.ts';
import { useSearchValue } from './use-search-value.ts';

function typingInSearchBox(): boolean {
  const active = document.activeElement;
  return active instanceof HTMLElement && active.classList.contains('ais-SearchBox-input');
}

/**
 * Follows `renderingContent.redirect` of the results once the shopper is done with the search box (submitted,
 * or left it): a search-as-you-type result for "help" must not snatch the page while "helpful" is being typed.
 * Same-origin targets open in the app and replace the search in history, so Back does not redirect again.
 */
export function RuleRedirect() {
  // Each new answer (not each render of the page while it searches).
  const results = useSearchValue((search) => search.mainIndex.getResults());
  // The helper's types predate `redirect` in renderingContent; the response carries it as Algolia's does.
  const renderingContent = results?.renderingContent as { redirect?: { url?: unknown } } | undefined;
  const url = !results || results.__isArtificial ? undefined : renderingContent?.redirect?.url;
  useEffect(() => {
    if (typeof url !== 'string' || url === '') return;
    const target = resolveRuleUrl(url, window.location.origin);
    if (target === undefined) return;
    let followed = false;
    const follow = () => {
      if (followed || typingInSearchBox()) return;
      followed = true;
      if ('inApp' in target) navigate(target.inApp, { replace: true });
      else window.location.assign(target.external);
    };
    follow();
    // focusout fires before focus moves on: look again once it has.
    const onFocusOut = () => queueMicrotask(follow);
    document.addEventListener('focusout', onFocusOut);
    return () => document.removeEventListener('focusout', onFocusOut);
  }, [url, results]);
  return null;
}
