import { useQueryRules } from 'react-instantsearch';
import { useContext } from 'react';
import { handleLinkClick, ServerUrlContext } from '../../lib/navigation.ts';
import { bannersFrom, resolveRuleUrl } from '../../lib/rules.ts';
import type { RuleBanner } from '../../lib/rules.ts';

function BannerLink({ link, children }: { link: string; children: string }) {
  const serverUrl = useContext(ServerUrlContext);
  const origin = serverUrl ? serverUrl.origin : window.location.origin;
  const target = resolveRuleUrl(link, origin);
  if (target === undefined) return null;
  if ('external' in target) return <a className="vt-banner-link" href={target.external}>{children}</a>;
  return (
    <a className="vt-banner-link" href={target.inApp} onClick={(event) => handleLinkClick(event, target.inApp)}>
      {children}
    </a>
  );
}

function Banner({ banner }: { banner: RuleBanner }) {
  return (
    <aside className="vt-banner" aria-label={banner.title ?? 'Announcement'}>
      {banner.image && <img className="vt-banner-image" src={banner.image} alt="" />}
      <div className="vt-banner-body">
        {banner.title && <p className="vt-banner-title">{banner.title}</p>}
        {banner.text && <p className="vt-banner-text">{banner.text}</p>}
        {banner.link && <BannerLink link={banner.link}>{banner.title ? `See ${banner.title}` : 'See more'}</BannerLink>}
      </div>
    </aside>
  );
}

/**
 * Banners from the rules that matched the search (`userData` items of `type: 'banner'`), above the results.
 * react-instantsearch v7 has no QueryRuleCustomData component; its `useQueryRules` hook gives the same items.
 */
export function RuleBanners() {
  const { items } = useQueryRules({});
  const banners = bannersFrom(items);
  if (banners.length === 0) return null;
  return (
    <div className="vt-banners">
      {banners.map((banner, index) => (
        <Banner key={index} banner={banner} />
      ))}
    </div>
  );
}
