/**
 * `GET /1/logs` (`getLogs`): the last requests answered, newest first, from the in-memory ring of
 * `http/api-logs.ts`. Admin key only: the entries show every caller's requests and answers (keys masked).
 */
import type { FastifyInstance } from 'fastify';
import type { GetLogsResponse, LogType } from '@vitrine/protocol';
import type { RouteDeps } from './deps.ts';
import { createError } from '../errors.ts';

export const LOGS_ROUTE = '/1/logs';
const TYPES = new Set<LogType>(['all', 'query', 'build', 'error']);

type LogsQuery = { offset?: string; length?: string; indexName?: string; type?: string };

function integer(raw: string | undefined, name: string, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value > max) throw createError('INVALID_PARAMETER', name, `expected an integer from 0 to ${max}`);
  return value;
}

export function logRoutes(app: FastifyInstance, { apiLogs }: RouteDeps): void {
  app.get<{ Querystring: LogsQuery }>(LOGS_ROUTE, async (request): Promise<GetLogsResponse> => {
    const { query } = request;
    const type = (query.type ?? 'all') as LogType;
    if (!TYPES.has(type)) throw createError('INVALID_PARAMETER', 'type', 'expected all, query, build or error');
    const offset = integer(query.offset, 'offset', 0, Number.MAX_SAFE_INTEGER);
    const length = integer(query.length, 'length', 10, 1000);
    const indexName = query.indexName === undefined || query.indexName === '' ? undefined : query.indexName;
    return { logs: apiLogs.list({ offset, length, type, ...(indexName === undefined ? {} : { indexName }) }) };
  });
}
