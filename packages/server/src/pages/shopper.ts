/**
 * Who a page is rendered for, as far as learning needs (`search/learning.ts`): the shopper's user token, when the
 * request carries the storefront's cookie (`userTokenCookie`). With it a rendered page is
 * searched as the shopper's browser searches after hydration (same A/B test variant, same personalization);
 * without it, re-ranking and query categorization alone apply, which depend on no one.
 */
import type { FastifyRequest } from 'fastify';
import { userTokenCookie } from '@vitrine/protocol';
import type { Searcher } from '../search/learning.ts';

/** As the Insights API's `userToken`: 1–129 letters, digits and `_ = / + -`. */
const USER_TOKEN = /^[A-Za-z0-9_=/+-]{1,129}$/;

/** The value of cookie `name` in a `Cookie` header (the first, as browsers send the most specific first). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== name) continue;
    const raw = pair.slice(at + 1).trim();
    try {
      return decodeURIComponent(raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2 ? raw.slice(1, -1) : raw);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The page's searcher: the shopper's user token when the cookie holds a valid one. Never the address: the
 * browser's searches split A/B tests by its token, so a page split by address could show another variant.
 */
export function pageSearcher(request: FastifyRequest): Omit<Searcher, 'auth'> {
  const token = cookieValue(request.headers.cookie, userTokenCookie);
  return token !== undefined && USER_TOKEN.test(token) ? { userToken: token } : {};
}
