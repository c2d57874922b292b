/**
 * The engine's error catalogue: every error a caller can cause has a stable code and a message template.
 * The server maps every `EngineError` to a 400 with Algolia's body `{ message, status }`; anything else that
 * escapes the engine is a bug.
 *
 * Add codes here rather than throwing ad-hoc strings; `%s` placeholders are filled in order.
 */
export const engineErrors = {
  INVALID_PARAMETER: 'Invalid value for "%s": %s',
  UNKNOWN_ATTRIBUTE_FOR_FACETING: 'Cannot search in `%s` attribute, you need to add `searchable(%s)` to attributesForFaceting.',
  FILTER_SYNTAX: 'filters: %s at col %s',
  FILTER_TOO_LARGE: 'filters: %s',
  INVALID_FACET_FILTER: 'Invalid facetFilters: %s',
  INVALID_NUMERIC_FILTER: 'Invalid numericFilters: %s',
  INVALID_TAG_FILTER: 'Invalid tagFilters: %s',
  INVALID_OPTIONAL_FILTER: 'Invalid optionalFilters: %s',
  INVALID_SETTING: 'Invalid setting "%s": %s',
  INVALID_RECORD: 'Invalid record: %s',
  INVALID_SNAPSHOT: 'Invalid snapshot: %s',
  INVALID_RULE: 'Invalid rule %s: %s',
} as const;

export type EngineErrorCode = keyof typeof engineErrors;

export class EngineError extends Error {
  override readonly name = 'EngineError';
  constructor(
    readonly code: EngineErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function createEngineError(code: EngineErrorCode, ...args: Array<string | number>): EngineError {
  let next = 0;
  const message = engineErrors[code].replace(/%s/g, () => String(args[next++] ?? ''));
  return new EngineError(code, message);
}
