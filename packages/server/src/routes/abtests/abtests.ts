/**
 * The A/B testing API (`/2/abtests`), as the `algoliasearch` v5 abtesting client calls it: `addABTests`,
 * `stopABTest`, `deleteABTest` (ACL `editSettings`), `getABTest`, `listABTests`, `estimateABTest` (ACL
 * `analytics`). Tests are kept by `@vitrine/insights` in its database, on disk before the answer; a change
 * applies at once, so the answer's `taskID` has nothing to wait for (it is the test's id). A key restricted to
 * some indexes sees and changes the tests whose first variant's index it may read.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ABTestResponse } from '@vitrine/protocol';
import { requireIndex } from '../../auth/authenticate.ts';
import { createError } from '../../errors.ts';
import type { RouteDeps } from '../deps.ts';
import { estimateABTest } from './estimate.ts';
import { parseAddABTest, parseTestID } from './input.ts';

const MAX_LIMIT = 1000;

type IdParams = { id: string };

function integer(query: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const raw = query[name];
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw createError('INVALID_PARAMETER', name, `expected an integer from ${min} to ${max}`);
  }
  return Number(raw);
}

function optionalText(query: Record<string, unknown>, name: string): string | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string') throw createError('INVALID_PARAMETER', name, 'expected a single value');
  return raw;
}

export function abTestRoutes(app: FastifyInstance, { store, limits, insights }: RouteDeps): void {
  const { abTests } = insights;
  const read = { acl: 'analytics' } as const;
  const write = { acl: 'editSettings' } as const;

  /** The test's id when it exists and the key may read its first index (else a 404, as for a missing one). */
  const existing = (request: FastifyRequest<{ Params: IdParams }>): number => {
    const id = parseTestID(request.params.id);
    const index = abTests.indexOf(id);
    if (index === undefined) throw createError('ABTEST_NOT_FOUND', id);
    if (request.auth) requireIndex(request.auth, index);
    return id;
  };
  const answer = (id: number, index: string): ABTestResponse => ({ index, abTestID: id, taskID: id });

  app.post('/2/abtests', { config: write }, async (request) => {
    const definition = parseAddABTest(request.body, {
      auth: request.auth!, limits, now: insights.now(), abTests, indexExists: (name) => store.registry.peek(name) !== undefined,
    });
    return answer(abTests.add(definition), definition.variants[0].index);
  });

  app.get('/2/abtests', { config: read }, async (request) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const offset = integer(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const limit = integer(query, 'limit', 10, 1, MAX_LIMIT);
    const indexPrefix = optionalText(query, 'indexPrefix');
    const indexSuffix = optionalText(query, 'indexSuffix');
    await insights.settleSearches();
    const auth = request.auth;
    const visible = (index: string): boolean => {
      if (!auth) return true;
      try {
        requireIndex(auth, index);
        return true;
      } catch {
        return false;
      }
    };
    return abTests.list({ offset, limit, ...(indexPrefix ? { indexPrefix } : {}), ...(indexSuffix ? { indexSuffix } : {}), visible });
  });

  app.post('/2/abtests/estimate', { config: read }, async (request) => estimateABTest(request.body, insights, request.auth));

  app.get<{ Params: IdParams }>('/2/abtests/:id', { config: read }, async (request) => {
    const id = existing(request);
    // Searches of shoppers still typing are counted now (query aggregation), as the analytics' reads do.
    await insights.settleSearches();
    return abTests.report(id);
  });

  app.post<{ Params: IdParams }>('/2/abtests/:id/stop', { config: write }, async (request) => {
    const id = existing(request);
    if (abTests.status(id) === 'stopped') throw createError('ABTEST_REFUSED', id, 'already stopped');
    abTests.stop(id);
    return answer(id, abTests.indexOf(id)!);
  });

  app.delete<{ Params: IdParams }>('/2/abtests/:id', { config: write }, async (request) => {
    const id = existing(request);
    const index = abTests.indexOf(id)!;
    abTests.delete(id);
    return answer(id, index);
  });
}
