/**
 * Secured API keys, as the official clients generate them (`generateSecuredApiKey`): base64 of
 * `hex(HMAC-SHA256(parentKey, params)) + params`, where `params` is a url-encoded string of restrictions
 * (v4 writes lists as JSON, v5 comma-joined: both parse). Restrictions: `restrictIndices`, `validUntil`,
 * `restrictSources`, `userToken`, `referers`, and any search parameter, which is forced onto every query.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createError } from '../errors.ts';
import { parseParamsString } from '../http/params.ts';

export interface SecuredRestrictions {
  restrictIndices?: string[];
  /** Unix time in seconds. */
  validUntil?: number;
  restrictSources?: string;
  userToken?: string;
  referers?: string[];
  /** Search parameters forced onto every query (filters included). */
  searchParams: Record<string, unknown>;
}

/** Splits a candidate secured key into its HMAC and params, or undefined when it does not have that shape. */
export function decodeSecuredKey(key: string): { hmac: string; params: string } | undefined {
  // 64 hex chars need at least 86 base64 chars: shorter keys are ordinary keys, skip the decoding.
  if (key.length < 86 || !/^[A-Za-z0-9+/=_-]+$/.test(key)) return undefined;
  const decoded = Buffer.from(key, 'base64').toString('utf8');
  const hmac = decoded.slice(0, 64);
  if (!/^[0-9a-f]{64}$/.test(hmac)) return undefined;
  return { hmac, params: decoded.slice(64) };
}

export function verifySecuredKey(parentKey: string, decoded: { hmac: string; params: string }): boolean {
  const expected = createHmac('sha256', parentKey).update(decoded.params).digest();
  const given = Buffer.from(decoded.hmac, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * A restriction's text: a string, or a number or boolean as it prints. Anything else (JSON objects parse out of
 * the params too) is a mistake of whoever generated the key: a 400, where `String` could throw (an object whose
 * `toString` is no function) and answer a 500.
 */
function restrictionText(name: string, value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw createError('INVALID_PARAMETER', name, 'expected a string in the secured API key');
}

function asStringList(name: string, value: unknown): string[] | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.map((item) => restrictionText(name, item));
  return restrictionText(name, value).split(',').map((item) => item.trim()).filter((item) => item !== '');
}

export function parseRestrictions(params: string): SecuredRestrictions {
  const parsed = parseParamsString(params);
  const { restrictIndices, validUntil, restrictSources, userToken, referers, ...searchParams } = parsed;
  const out: SecuredRestrictions = { searchParams };
  // Without empty names, and kept even when that leaves none (`[]`, `""`, `[""]`): a key restricted to no index
  // opens none (authenticate.ts `indexInScope`), where an absent restriction leaves the parent's scope.
  const indices = asStringList('restrictIndices', restrictIndices)?.filter((item) => item.trim() !== '');
  if (indices) out.restrictIndices = indices;
  if (validUntil !== undefined) out.validUntil = Number(validUntil);
  if (restrictSources !== undefined) out.restrictSources = restrictionText('restrictSources', restrictSources);
  if (userToken !== undefined) out.userToken = restrictionText('userToken', userToken);
  const refererList = asStringList('referers', referers);
  if (refererList) out.referers = refererList;
  return out;
}
