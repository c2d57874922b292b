/**
 * attributesToRetrieve / unretrievableAttributes: which parts of a record a hit shows. `*` means all, `-attr`
 * excludes (with `*`), dotted paths select nested attributes. `objectID` is always returned.
 */
import type { IndexRecord } from '@vitrine/protocol';

export interface RetrieveSpec {
  all: boolean;
  include: string[][];
  exclude: string[][];
}

export function parseRetrieve(list: string[], unretrievable: string[]): RetrieveSpec {
  const all = list.includes('*');
  const include = list.filter((a) => a !== '*' && !a.startsWith('-')).map((a) => a.split('.'));
  const exclude = [...list.filter((a) => a.startsWith('-')).map((a) => a.slice(1)), ...unretrievable].map((a) => a.split('.'));
  return { all, include, exclude };
}

export function retrieve(record: IndexRecord, spec: RetrieveSpec): Record<string, unknown> {
  let out: Record<string, unknown>;
  if (spec.all) out = { ...record };
  else {
    out = {};
    for (const path of spec.include) copyPath(record, out, path);
  }
  for (const path of spec.exclude) removePath(out, path, record);
  out.objectID = record.objectID;
  return out;
}

function copyPath(from: Record<string, unknown>, to: Record<string, unknown>, path: string[]): void {
  const [head, ...rest] = path;
  if (!(head in from)) return;
  const value = from[head];
  if (rest.length === 0) {
    to[head] = value;
    return;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const target = (to[head] ??= {}) as Record<string, unknown>;
  copyPath(value as Record<string, unknown>, target, rest);
}

/** Removes a path, copying the objects on the way so the stored record is never mutated. */
function removePath(out: Record<string, unknown>, path: string[], original: Record<string, unknown>): void {
  const [head, ...rest] = path;
  if (!(head in out)) return;
  if (rest.length === 0) {
    delete out[head];
    return;
  }
  const value = out[head];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  const copy = { ...(value as Record<string, unknown>) };
  out[head] = copy;
  removePath(copy, rest, original);
}

/** Algolia's `params` echo: the search parameters, url-encoded (objects and arrays as JSON). */
export function encodeParams(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    search.append(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return search.toString();
}
