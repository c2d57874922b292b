/**
 * A record's text as a `rest` or `huggingFace` embedder is given it: its `documentTemplate` filled in (`{{doc.attribute}}`,
 * dotted paths, lists joined with ", "), or by default one `attribute: value` line per searchable attribute (or
 * per top-level attribute when every one is searchable), cut to `documentTemplateMaxBytes` of UTF-8 (400).
 *
 * Pure and deterministic: applying a `vectors` operation renders the record again and compares the hash with
 * the one the vector was made from (`apply.ts`), on every copy of the state alike.
 */
import { createHash } from 'node:crypto';
import { parsePath, parseSearchableAttributes } from '@vitrine/engine';
import type { DocumentTemplateSettings, IndexRecord, IndexSettings } from '@vitrine/protocol';
import { DEFAULT_TEMPLATE_BYTES } from './embedder-settings.ts';

const PLACEHOLDER = /\{\{\s*doc\.([^}\s]+)\s*\}\}/g;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function valueAt(record: Record<string, unknown>, path: readonly string[]): unknown {
  let value: unknown = record;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(asText).filter((text) => text !== '').join(', ');
  return JSON.stringify(value);
}

/** The first `max` bytes of `text` in UTF-8, never cutting a character. */
function cut(text: string, max: number): string {
  const bytes = encoder.encode(text);
  if (bytes.length <= max) return text;
  let end = max;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return decoder.decode(bytes.subarray(0, end));
}

export function documentText(record: IndexRecord, embedder: DocumentTemplateSettings, settings: IndexSettings): string {
  const max = embedder.documentTemplateMaxBytes ?? DEFAULT_TEMPLATE_BYTES;
  if (typeof embedder.documentTemplate === 'string') {
    return cut(embedder.documentTemplate.replace(PLACEHOLDER, (_, path: string) => asText(valueAt(record, parsePath(path)))), max);
  }
  const slots = parseSearchableAttributes(settings.searchableAttributes);
  const attributes = slots === null ? Object.keys(record).filter((key) => key !== 'objectID' && !key.startsWith('_')) : [...new Set(slots.map((slot) => slot.attribute))];
  const lines: string[] = [];
  for (const attribute of attributes) {
    const text = asText(valueAt(record, parsePath(attribute)));
    if (text !== '') lines.push(`${attribute}: ${text}`);
  }
  return cut(lines.join('\n'), max);
}

/** What a `vectors` operation records of the text a vector was made from. */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}
