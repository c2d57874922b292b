/**
 * The server's side of the `embedders` setting: what a `rest` embedder calls and how (url, request and response
 * templates, headers, key, document template) and which model a `huggingFace` one runs (a folder's name; the
 * model itself is tried by `embedders/local-models.ts`), checked before a settings write is logged, and its secrets
 * masked whenever settings are read (`GET …/settings`): the API key, and header values that look like secrets.
 * A client writing back the settings it read sends the masks: they are replaced by the values they stand for,
 * so a round trip never overwrites a key with its mask.
 */
import type { ComputedEmbedder, EmbedderSettings, IndexSettings, RestEmbedder } from '@vitrine/protocol';
import { createError } from '../errors.ts';

const TEXT = '{{text}}';
const EMBEDDING = '{{embedding}}';
const REPEAT = '{{..}}';
/** Longest document text a record is cut to, at most (Meilisearch's default is 400 bytes). */
export const MAX_TEMPLATE_BYTES = 65_536;
export const DEFAULT_TEMPLATE_BYTES = 400;
const REST_FIELDS = new Set(['source', 'dimensions', 'url', 'request', 'response', 'headers', 'apiKey', 'documentTemplate', 'documentTemplateMaxBytes']);
const USER_FIELDS = new Set(['source', 'dimensions']);
const MODEL_FIELDS = new Set(['source', 'dimensions', 'model', 'pooling', 'documentTemplate', 'documentTemplateMaxBytes']);
const POOLINGS = new Set(['useModel', 'forceMean', 'forceCls']);
/** A model's folder inside the models folder: names of letters, digits, `.`, `_`, `-` (not `.` or `..`), joined by `/`. */
const MODEL_PATH = /^(?!\.{1,2}(?:\/|$))[A-Za-z0-9._-]+(?:\/(?!\.{1,2}(?:\/|$))[A-Za-z0-9._-]+)*$/;
const MAX_MODEL_PATH = 200;
/** Header names whose values are masked when settings are read. */
const SECRET_HEADER = /authorization|api[-_]?key|token|secret|password|cookie/i;

const invalid = (where: string, message: string) => createError('INVALID_PARAMETER', where, message);

/** Where `marker` strings sit in a JSON template: their paths (`[]` for the root), as found depth first. */
function markerPaths(value: unknown, marker: string, path: Array<string | number> = [], out: Array<Array<string | number>> = []): Array<Array<string | number>> {
  if (value === marker) out.push(path);
  else if (Array.isArray(value)) value.forEach((item, i) => markerPaths(item, marker, [...path, i], out));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) markerPaths(item, marker, [...path, key], out);
  return out;
}

/** Whether the template sends a list of texts: `[<item holding {{text}}>, "{{..}}"]` somewhere. */
function repeats(template: unknown): boolean {
  return markerPaths(template, REPEAT).length > 0;
}

/**
 * Checks a rest embedder's request and response templates (Meilisearch's syntax): `{{text}}` once in the
 * request, `{{embedding}}` once in the response, and `{{..}}` in both or in neither, as the second and last
 * element of a list whose first element holds the marker.
 */
function checkTemplates(where: string, request: unknown, response: unknown): void {
  const check = (name: string, template: unknown, marker: string): void => {
    const at = markerPaths(template, marker);
    if (at.length !== 1) throw invalid(`${where}.${name}`, `must hold "${marker}" exactly once`);
    const repeat = markerPaths(template, REPEAT);
    if (repeat.length > 1) throw invalid(`${where}.${name}`, `must hold "${REPEAT}" at most once`);
    if (repeat.length === 1) {
      const list = repeat[0].slice(0, -1);
      const index = repeat[0][repeat[0].length - 1];
      const holder = list.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], template);
      const inFirst = at[0].length > list.length && JSON.stringify(at[0].slice(0, list.length)) === JSON.stringify(list) && at[0][list.length] === 0;
      if (index !== 1 || !Array.isArray(holder) || holder.length !== 2 || !inFirst) {
        throw invalid(`${where}.${name}`, `"${REPEAT}" must be the second and last element of a list whose first element holds "${marker}"`);
      }
    }
  };
  check('request', request, TEXT);
  check('response', response, EMBEDDING);
  if (repeats(request) !== repeats(response)) throw invalid(where, `"${REPEAT}" must be in both request and response, or in neither`);
}

function checkRest(where: string, raw: Record<string, unknown>): void {
  const { url, request, response, headers, apiKey } = raw;
  if (typeof url !== 'string') throw invalid(`${where}.url`, 'expected the embedder\'s URL');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid(`${where}.url`, 'not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid(`${where}.url`, 'expected http or https');
  if (request === undefined || response === undefined) throw invalid(where, 'a rest embedder needs "request" and "response" templates');
  checkTemplates(where, request, response);
  if (headers !== undefined && headers !== null) {
    if (typeof headers !== 'object' || Array.isArray(headers) || !Object.values(headers).every((v) => typeof v === 'string')) throw invalid(`${where}.headers`, 'expected an object of strings');
  }
  if (apiKey !== undefined && apiKey !== null && typeof apiKey !== 'string') throw invalid(`${where}.apiKey`, 'expected a string');
  checkDocumentTemplate(where, raw);
}

function checkDocumentTemplate(where: string, { documentTemplate, documentTemplateMaxBytes }: Record<string, unknown>): void {
  if (documentTemplate !== undefined && documentTemplate !== null) {
    if (typeof documentTemplate !== 'string') throw invalid(`${where}.documentTemplate`, 'expected a string');
    if (documentTemplate.includes('{%')) throw invalid(`${where}.documentTemplate`, 'only {{doc.attribute}} placeholders are supported (no {% %} tags)');
  }
  if (documentTemplateMaxBytes !== undefined && documentTemplateMaxBytes !== null) {
    const n = documentTemplateMaxBytes;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_TEMPLATE_BYTES) throw invalid(`${where}.documentTemplateMaxBytes`, `expected an integer from 1 to ${MAX_TEMPLATE_BYTES}`);
  }
}

function checkModel(where: string, raw: Record<string, unknown>): void {
  const { model, pooling } = raw;
  if (typeof model !== 'string' || model.length > MAX_MODEL_PATH || !MODEL_PATH.test(model)) {
    throw invalid(`${where}.model`, "expected the name of a folder in the server's models folder (as \"sentence-transformers/all-MiniLM-L6-v2\"): Vitrine downloads no model");
  }
  if (pooling !== undefined && pooling !== null && (typeof pooling !== 'string' || !POOLINGS.has(pooling))) throw invalid(`${where}.pooling`, 'expected useModel, forceMean or forceCls');
  checkDocumentTemplate(where, raw);
}

const FIELDS: Record<string, Set<string>> = { rest: REST_FIELDS, huggingFace: MODEL_FIELDS };

/**
 * Checks the server's part of `embedders` (the engine checks names, sources and dimensions): a rest embedder's
 * url, templates, headers, key and document template, a huggingFace one's model folder name and pooling; no
 * field a source does not have (Meilisearch's `revision` among them: there is nothing to download).
 */
export function checkEmbedders(value: unknown): void {
  if (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value)) return;
  for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) continue;
    const where = `embedders.${name}`;
    const source = (raw as { source?: unknown }).source;
    const fields = FIELDS[source as string] ?? USER_FIELDS;
    const unknown = Object.keys(raw).filter((key) => !fields.has(key));
    if (unknown.length > 0) throw invalid(where, `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} for this source (${[...fields].join(', ')})`);
    if (source === 'rest') checkRest(where, raw as Record<string, unknown>);
    else if (source === 'huggingFace') checkModel(where, raw as Record<string, unknown>);
  }
}

/**
 * Checks the `hybrid` setting (the default of searches sending neither `hybrid` nor `vector`): its shape only.
 * Whether it names an embedder of the index is judged at each search, as embedders change (one it no longer
 * names leaves searches keyword searches: `embedders/query-vectors.ts`).
 */
export function checkDefaultHybrid(value: unknown): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('hybrid', 'expected an object: { "embedder": name, "semanticRatio": 0 to 1 }');
  const { embedder, semanticRatio, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) throw invalid('hybrid', `unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (embedder, semanticRatio)`);
  if (embedder !== undefined && embedder !== null && typeof embedder !== 'string') throw invalid('hybrid.embedder', 'expected a string');
  if (semanticRatio !== undefined && semanticRatio !== null && (typeof semanticRatio !== 'number' || !(semanticRatio >= 0 && semanticRatio <= 1))) {
    throw invalid('hybrid.semanticRatio', 'expected a number from 0 to 1');
  }
}

function embeddersOf(settings: IndexSettings): Array<[string, EmbedderSettings]> {
  const embedders = settings.embedders;
  if (embedders === undefined || embedders === null || typeof embedders !== 'object') return [];
  return Object.entries(embedders as Record<string, EmbedderSettings>);
}

/** The rest embedders of settings, by name. */
export function restEmbedders(settings: IndexSettings): Array<[string, RestEmbedder]> {
  return embeddersOf(settings).filter((entry): entry is [string, RestEmbedder] => entry[1]?.source === 'rest');
}

/** Whether the server makes this embedder's vectors (rest and huggingFace), rather than the caller. */
export function isComputed(embedder: EmbedderSettings | undefined): embedder is ComputedEmbedder {
  return embedder?.source === 'rest' || embedder?.source === 'huggingFace';
}

/** The embedders of settings whose vectors the server makes, by name. */
export function computedEmbedders(settings: IndexSettings): Array<[string, ComputedEmbedder]> {
  return embeddersOf(settings).filter((entry): entry is [string, ComputedEmbedder] => isComputed(entry[1]));
}

/** A secret as settings show it: its last 4 characters when it is long enough to keep most of it hidden. */
export function maskSecret(secret: string): string {
  return secret.length >= 16 ? `••••${secret.slice(-4)}` : '••••';
}

const secretHeaders = (headers: Record<string, string> | undefined): string[] => Object.keys(headers ?? {}).filter((name) => SECRET_HEADER.test(name));

/** Settings as read: rest embedders' keys and secret-looking header values masked. */
export function maskEmbedderSecrets(settings: IndexSettings): IndexSettings {
  const rest = restEmbedders(settings);
  if (rest.length === 0) return settings;
  const embedders = { ...(settings.embedders as Record<string, EmbedderSettings>) };
  for (const [name, embedder] of rest) {
    const masked: RestEmbedder = { ...embedder };
    if (typeof embedder.apiKey === 'string') masked.apiKey = maskSecret(embedder.apiKey);
    const secret = secretHeaders(embedder.headers);
    if (secret.length > 0) masked.headers = Object.fromEntries(Object.entries(embedder.headers!).map(([key, value]) => [key, secret.includes(key) ? maskSecret(value) : value]));
    embedders[name] = masked;
  }
  return { ...settings, embedders };
}

/**
 * A settings patch with the masks of `current`'s secrets (as `maskEmbedderSecrets` shows them) put back to the
 * values they stand for, for the same embedder name: a client writing back what it read keeps the keys.
 */
export function unmaskEmbedderSecrets(patch: Record<string, unknown>, current: IndexSettings): Record<string, unknown> {
  const incoming = patch.embedders;
  if (incoming === undefined || incoming === null || typeof incoming !== 'object' || Array.isArray(incoming)) return patch;
  const before = new Map(restEmbedders(current));
  let changed = false;
  const embedders: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(incoming as Record<string, unknown>)) {
    const old = before.get(name);
    if (old === undefined || raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      embedders[name] = raw;
      continue;
    }
    const next = { ...(raw as Record<string, unknown>) };
    if (typeof old.apiKey === 'string' && next.apiKey === maskSecret(old.apiKey)) {
      next.apiKey = old.apiKey;
      changed = true;
    }
    const headers = next.headers;
    if (headers !== null && typeof headers === 'object' && !Array.isArray(headers) && old.headers !== undefined) {
      const restored = { ...(headers as Record<string, unknown>) };
      for (const key of secretHeaders(old.headers)) {
        if (restored[key] === maskSecret(old.headers[key])) {
          restored[key] = old.headers[key];
          changed = true;
        }
      }
      next.headers = restored;
    }
    embedders[name] = next;
  }
  return changed ? { ...patch, embedders } : patch;
}
