/**
 * What an API key forces over a search's parameters: its parameters replace the search's, and its
 * `maxHitsPerQuery` caps the page. The server applies it to the request; the engine again over what the rules
 * made of it, so that no consequence (`attributesToRetrieve: ["*"]`, `hitsPerPage: 1000`) widens what the key
 * allows (issue 49).
 */
import type { SearchParams } from '@vitrine/protocol';
import type { SearchOptions } from '../api.ts';

export type KeyLimits = Pick<SearchOptions, 'forcedParams' | 'maxHitsPerQuery'>;

export function withinKeyLimits(params: SearchParams, limits: KeyLimits | undefined): SearchParams {
  const forced = limits?.forcedParams;
  const maxHits = limits?.maxHitsPerQuery ?? 0;
  if (forced === undefined && maxHits <= 0) return params;
  const out: SearchParams = { ...params, ...forced };
  if (maxHits > 0) {
    out.hitsPerPage = Math.min(typeof out.hitsPerPage === 'number' ? out.hitsPerPage : 20, maxHits);
    if (typeof out.length === 'number') out.length = Math.min(out.length, maxHits);
  }
  return out;
}
