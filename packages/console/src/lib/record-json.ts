/** Reading a record typed as JSON in the console's editor: an object, with a string objectID if any. */

export type ParsedRecord = { ok: true; record: Record<string, unknown> } | { ok: false; reason: string };

export function parseRecordJson(text: string): ParsedRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  return checkRecord(value);
}

/** The shape every imported or edited record must have, whatever format it came in. */
export function checkRecord(value: unknown): ParsedRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'A record must be a JSON object' };
  const record = value as Record<string, unknown>;
  if ('objectID' in record && (typeof record.objectID !== 'string' || record.objectID === '')) {
    return { ok: false, reason: 'objectID must be a non-empty string' };
  }
  return { ok: true, record };
}

/** A short label for a record in a list: its name or title if it has one. */
export function recordLabel(record: Record<string, unknown>): string {
  for (const field of ['name', 'title', 'label']) {
    if (typeof record[field] === 'string') return record[field] as string;
  }
  return '';
}
