/**
 * Errors of the insights routes, as the core's `ApiError` (so the app's error handler answers Algolia's
 * `{ message, status }`). The Insights API answers 422 for an invalid event or batch; the other APIs 400.
 */
import { ApiError } from '../errors.ts';

/** An invalid `POST /1/events` payload: nothing of the batch is stored. */
export function invalidEvents(message: string): ApiError {
  return new ApiError('INVALID_EVENT', 422, message);
}

export function invalidParameter(name: string, expected: string): ApiError {
  return new ApiError('INVALID_PARAMETER', 400, `Invalid value for "${name}": ${expected}`);
}

export function missingParameter(name: string): ApiError {
  return new ApiError('MISSING_PARAMETER', 400, `Missing parameter: ${name}`);
}

export function tooLarge(limit: number): ApiError {
  return new ApiError('BODY_TOO_LARGE', 413, `Request body too large: the Insights API takes at most ${limit} bytes per request`);
}
