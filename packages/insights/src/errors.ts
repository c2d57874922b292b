/**
 * Errors a caller of insights can cause. Each carries the HTTP status it answers as `statusCode`, the
 * convention of Fastify's errors, so the host's error handler turns it into Algolia's `{ message, status }`
 * without knowing this package. The Insights API answers 422 for an invalid event or batch (429 when too many
 * wait to be stored); the other APIs 400.
 */
export class InsightsError extends Error {
  override readonly name = 'InsightsError';
  constructor(
    readonly code: 'INVALID_EVENT' | 'INVALID_PARAMETER' | 'MISSING_PARAMETER' | 'INDEX_NOT_FOUND' | 'NOT_FOUND' | 'TOO_MANY_EVENTS',
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
  /** The status, under the name the server's `ApiError` uses. */
  get status(): number {
    return this.statusCode;
  }
}

/** An invalid `POST /1/events` payload: nothing of the batch is stored. */
export function invalidEvents(message: string): InsightsError {
  return new InsightsError('INVALID_EVENT', 422, message);
}

export function invalidParameter(name: string, expected: string): InsightsError {
  return new InsightsError('INVALID_PARAMETER', 400, `Invalid value for "${name}": ${expected}`);
}

export function missingParameter(name: string): InsightsError {
  return new InsightsError('MISSING_PARAMETER', 400, `Missing parameter: ${name}`);
}

/** The same text as the server's catalogue (`INDEX_NOT_FOUND`): clients see one answer for a missing index. */
export function indexNotFound(): InsightsError {
  return new InsightsError('INDEX_NOT_FOUND', 404, 'Index does not exist');
}
