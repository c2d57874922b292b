/** An API key's definition ↔ the Keys screen's form (lists typed comma-separated, limits as numbers). */
import type { ApiKey, GetApiKeyResponse } from 'algoliasearch';
import type { Acl } from '../../api/access.ts';

export interface KeyForm {
  description: string;
  acl: Acl[];
  indexes: string;
  referers: string;
  maxQueriesPerIPPerHour: number;
  maxHitsPerQuery: number;
  /** Seconds the key stays valid after creation (0: forever). */
  validity: number;
  queryParameters: string;
}

export const emptyKeyForm: KeyForm = { description: '', acl: ['search'], indexes: '', referers: '', maxQueriesPerIPPerHour: 0, maxHitsPerQuery: 0, validity: 0, queryParameters: '' };

const list = (text: string) => text.split(',').map((item) => item.trim()).filter(Boolean);

export function keyToForm(key: GetApiKeyResponse): KeyForm {
  return {
    description: key.description ?? '',
    acl: key.acl as Acl[],
    indexes: (key.indexes ?? []).join(', '),
    referers: (key.referers ?? []).join(', '),
    maxQueriesPerIPPerHour: key.maxQueriesPerIPPerHour ?? 0,
    maxHitsPerQuery: key.maxHitsPerQuery ?? 0,
    validity: key.validity ?? 0,
    queryParameters: key.queryParameters ?? '',
  };
}

export function formToKey(form: KeyForm): ApiKey {
  return {
    description: form.description,
    acl: form.acl,
    indexes: list(form.indexes),
    referers: list(form.referers),
    maxQueriesPerIPPerHour: form.maxQueriesPerIPPerHour,
    maxHitsPerQuery: form.maxHitsPerQuery,
    validity: form.validity,
    queryParameters: form.queryParameters.trim(),
  };
}
