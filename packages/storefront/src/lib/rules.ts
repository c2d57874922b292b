/**
 * What the storefront reads from merchandising rules: banners in a response's `userData`, the rule context of a
 * category page, and whether a redirect target may be followed.
 */

/** A banner as rules carry it in `userData` (`{type: 'banner', …}`); other userData shapes are ignored. */
export interface RuleBanner {
  title?: string;
  text?: string;
  /** Same-origin path or absolute http(s) URL. */
  link?: string;
  /** Image URL (same origin or `data:`, as the page's Content-Security-Policy allows). */
  image?: string;
}

const optionalString = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The banners among userData items, with only their string fields kept (userData is any JSON a merchant saved). */
export function bannersFrom(items: readonly unknown[]): RuleBanner[] {
  const banners: RuleBanner[] = [];
  for (const item of items) {
    if (typeof item !== 'object' || item === null || (item as { type?: unknown }).type !== 'banner') continue;
    const { title, text, link, image } = item as Record<string, unknown>;
    const banner: RuleBanner = { title: optionalString(title), text: optionalString(text), link: safeUrl(link), image: optionalString(image) };
    if (banner.title || banner.text || banner.image) banners.push(banner);
  }
  return banners;
}

/**
 * Where a rule's URL leads: `{ inApp: '/path?query' }` on this origin, `{ external: 'https://…' }` elsewhere, or
 * undefined for anything but http(s) (a `javascript:` URL in a rule must never run).
 */
export function resolveRuleUrl(url: string, origin: string): { inApp: string } | { external: string } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url, origin);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  if (parsed.origin === origin) return { inApp: `${parsed.pathname}${parsed.search}${parsed.hash}` };
  return { external: parsed.href };
}

function safeUrl(value: unknown): string | undefined {
  const url = optionalString(value);
  if (url === undefined) return undefined;
  return resolveRuleUrl(url, 'http://same.invalid') ? url : undefined;
}

/**
 * The rule context a search within a department carries: `category-<slug>`, with the slug as the demo's rules
 * spell it (`categoryContext` in @vitrine/demo: "&" becomes "and", apostrophes go), not the shop's URL slugs.
 */
export function categoryRuleContext(department: string): string {
  const slug = department
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `category-${slug}`;
}
