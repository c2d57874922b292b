/**
 * attributesToRetrieve / unretrievableAttributes: which parts of a record a hit shows. `*` means all, `-attr`
 * excludes (with `*`), dotted paths select nested attributes, wherever the record spells them (keys may hold
 * dots: see `index/attributes.ts`). `objectID` is always returned.
 */
import type { IndexRecord } from '@vitrine/protocol';
import { keyPathsIn, parsePath, setOwn, type AttributePath } from '../index/attributes.ts';

export interface RetrieveSpec {
  all: boolean;
  include: AttributePath[];
  exclude: AttributePath[];
}

export function parseRetrieve(list: string[], unretrievable: string[]): RetrieveSpec {
  const all = list.includes('*');
  const include = list.filter((a) => a !== '*' && !a.startsWith('-')).map(parsePath);
  const exclude = [...list.filter((a) => a.startsWith('-')).map((a) => a.slice(1)), ...unretrievable].map(parsePath);
  return { all, include, exclude };
}

export function retrieve(record: IndexRecord, spec: RetrieveSpec): Record<string, unknown> {
  let out: Record<string, unknown>;
  if (spec.all) out = { ...record };
  else {
    out = {};
    for (const path of spec.include) for (const keys of keyPathsIn(record, path)) copyPath(record, out, keys);
  }
  for (const path of spec.exclude) for (const keys of keyPathsIn(out, path)) removePath(out, keys);
  out.objectID = record.objectID;
  return out;
}

function copyPath(from: Record<string, unknown>, to: Record<string, unknown>, keys: readonly string[]): void {
  let source = from;
  let target = to;
  for (let i = 0; i < keys.length - 1; i++) {
    source = source[keys[i]] as Record<string, unknown>;
    let child = Object.hasOwn(target, keys[i]) ? (target[keys[i]] as Record<string, unknown>) : undefined;
    if (child === undefined) setOwn(target, keys[i], (child = {}));
    target = child;
  }
  setOwn(target, keys[keys.length - 1], source[keys[keys.length - 1]]);
}

/** Removes the value at `keys`, copying the objects on the way so the stored record is never mutated. */
function removePath(out: Record<string, unknown>, keys: readonly string[]): void {
  let node = out;
  for (let i = 0; i < keys.length - 1; i++) {
    const copy = { ...(node[keys[i]] as Record<string, unknown>) };
    setOwn(node, keys[i], copy);
    node = copy;
  }
  delete node[keys[keys.length - 1]];
}

/**
 * Algolia's `params` echo: the search parameters, url-encoded (objects and arrays as JSON) exactly as
 * `URLSearchParams` writes them. Built with `encodeURIComponent` rather than through a `URLSearchParams`, whose
 * serialisation made several strings and arrays per parameter, on every search.
 */
export function encodeParams(params: Record<string, unknown>): string {
  let out = '';
  for (const key of Object.keys(params)) {
    const value = params[key];
    if (value === undefined) continue;
    out += `${out === '' ? '' : '&'}${formEncode(key)}=${formEncode(typeof value === 'string' ? value : JSON.stringify(value))}`;
  }
  return out;
}

/** What `encodeURIComponent` leaves as it is but the form encoding escapes. */
const FORM_ONLY = /[!'()~]/g;
const escapeFormOnly = (char: string): string => `%${char.charCodeAt(0).toString(16).toUpperCase()}`;

/** `application/x-www-form-urlencoded` of one name or value, as `URLSearchParams` encodes it. */
function formEncode(text: string): string {
  let encoded: string;
  try {
    encoded = encodeURIComponent(text);
  } catch {
    // A lone surrogate (encodeURIComponent refuses it; URLSearchParams writes U+FFFD).
    return new URLSearchParams([['', text]]).toString().slice(1);
  }
  return encoded.replace(/%20/g, '+').replace(FORM_ONLY, escapeFormOnly);
}
