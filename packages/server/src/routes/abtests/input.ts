/**
 * `addABTests` bodies checked whole before anything is stored: a name, exactly two variants whose traffic sums
 * to 100, indexes that exist and that the key may read, custom search parameters only on the second variant and
 * only when both variants use one index (validated as a search's), an end in the future and at most 90 days
 * ahead, and no index already in an active test. Every refusal is a 400 naming what to change.
 */
import type { AbTestDefinition, AbTests } from '@vitrine/insights';
import type { AddABTestsVariant } from '@vitrine/protocol';
import type { AuthContext } from '../../auth/authenticate.ts';
import { requireIndex } from '../../auth/authenticate.ts';
import type { ServerLimits } from '../../config.ts';
import { createError } from '../../errors.ts';
import { requestParams } from '../../search/run.ts';

/** Algolia's longest A/B test. */
export const MAX_DAYS = 90;
const MAX_TEXT = 256;
const DAY_MS = 86_400_000;

/** RFC 3339 with a time and a zone (`2026-01-31T23:59:59Z`, `…+02:00`), as `endAt` must be. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, name: string, required: boolean): string | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw createError('INVALID_ABTEST', `${name} must be a non-empty string`);
  if (value.length > MAX_TEXT) throw createError('INVALID_ABTEST', `${name} is longer than ${MAX_TEXT} characters`);
  return value;
}

function variant(raw: unknown, i: number, limits: ServerLimits): AddABTestsVariant {
  if (!isObject(raw)) throw createError('INVALID_ABTEST', `variants[${i}] must be an object`);
  const index = text(raw.index, `variants[${i}].index`, true)!;
  const traffic = raw.trafficPercentage;
  if (typeof traffic !== 'number' || !Number.isInteger(traffic) || traffic < 1 || traffic > 99) {
    throw createError('INVALID_ABTEST', `variants[${i}].trafficPercentage must be an integer from 1 to 99`);
  }
  const description = text(raw.description, `variants[${i}].description`, false);
  const out: AddABTestsVariant = { index, trafficPercentage: traffic, ...(description !== undefined ? { description } : {}) };
  if (raw.customSearchParameters !== undefined) {
    if (!isObject(raw.customSearchParameters) || Object.keys(raw.customSearchParameters).length === 0) {
      throw createError('INVALID_ABTEST', `variants[${i}].customSearchParameters must be an object of search parameters`);
    }
    // Checked as a search's parameters (names, types, sizes), and kept as a search reads them (a `params` string
    // decoded): a test must not make every search of a variant fail.
    out.customSearchParameters = requestParams(raw.customSearchParameters, null, limits);
  }
  return out;
}

/** The test to create, or a 400. `indexExists` tells the indexes of the application. */
export function parseAddABTest(body: unknown, context: { auth: AuthContext; limits: ServerLimits; now: number; abTests: AbTests; indexExists: (name: string) => boolean }): AbTestDefinition {
  if (!isObject(body)) throw createError('INVALID_ABTEST', 'expected a JSON object with name, variants and endAt');
  const name = text(body.name, 'name', true)!;
  if (!Array.isArray(body.variants) || body.variants.length !== 2) throw createError('INVALID_ABTEST', 'variants must list exactly two variants');
  const variants = body.variants.map((raw, i) => variant(raw, i, context.limits)) as [AddABTestsVariant, AddABTestsVariant];
  const total = variants[0].trafficPercentage + variants[1].trafficPercentage;
  if (total !== 100) throw createError('INVALID_ABTEST', `the variants' trafficPercentage must sum to 100, not ${total}`);
  const sameIndex = variants[0].index === variants[1].index;
  if (variants[0].customSearchParameters) throw createError('INVALID_ABTEST', 'customSearchParameters belong to the second variant: the first is the control');
  if (sameIndex && !variants[1].customSearchParameters) throw createError('INVALID_ABTEST', 'two variants of the same index need customSearchParameters on the second');
  if (!sameIndex && variants[1].customSearchParameters) throw createError('INVALID_ABTEST', 'customSearchParameters are for variants of the same index');
  for (const { index } of variants) {
    requireIndex(context.auth, index);
    if (!context.indexExists(index)) throw createError('INVALID_ABTEST', `index ${index} does not exist`);
  }
  const endAt = typeof body.endAt === 'string' && RFC3339.test(body.endAt) ? Date.parse(body.endAt) : Number.NaN;
  if (Number.isNaN(endAt)) throw createError('INVALID_ABTEST', 'endAt must be a date and time in RFC 3339 format (2026-01-31T23:59:59Z)');
  if (endAt <= context.now) throw createError('INVALID_ABTEST', 'endAt must be in the future');
  if (endAt - context.now > MAX_DAYS * DAY_MS) throw createError('INVALID_ABTEST', `endAt must be at most ${MAX_DAYS} days ahead`);
  for (const { index } of variants) {
    const running = context.abTests.activeOn(index);
    if (running !== undefined) throw createError('INVALID_ABTEST', `index ${index} is already in the active A/B test ${running}: stop it first`);
  }
  return { name, variants, endAt: new Date(endAt).toISOString() };
}

/** The `:id` of a route, as an A/B test id. */
export function parseTestID(raw: string): number {
  if (!/^\d{1,15}$/.test(raw)) throw createError('INVALID_PARAMETER', 'id', 'expected an A/B test id (a positive integer)');
  return Number(raw);
}
