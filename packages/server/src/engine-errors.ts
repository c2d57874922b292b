/**
 * The engine's errors as the server's: a filter, a search parameter or settings the engine rejects are the
 * caller's mistake, a 400 with the engine's message. Beside `errors.ts` because storage, auth and search all
 * run engine code on caller input.
 */
import { EngineError } from '@vitrine/engine';
import { createError } from './errors.ts';

/** Runs an engine check, turning its errors into 400s with the engine's message. */
export function engineCheck<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof EngineError) throw createError('ENGINE', error.message);
    throw error;
  }
}
