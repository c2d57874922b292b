/**
 * Task status. Task IDs are positions in the write log, shared by all indexes: a task is `published` once
 * search sees it. Any valid key may ask (knowing a task ID reveals nothing).
 */
import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './deps.ts';
import { createError } from '../errors.ts';

export function parseTaskID(raw: string): number {
  const taskID = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(taskID)) throw createError('INVALID_PARAMETER', 'taskID', 'expected a positive integer');
  return taskID;
}

export function taskRoutes(app: FastifyInstance, { store }: RouteDeps): void {
  app.get<{ Params: { indexName: string; taskID: string } }>('/1/indexes/:indexName/task/:taskID', { config: { anyKey: true } }, async (request) => {
    const status = store.taskStatus(parseTaskID(request.params.taskID));
    if (!status) throw createError('TASK_NOT_FOUND');
    // The spec's getTaskResponse has `status` only (additionalProperties: false).
    return { status };
  });

  app.get<{ Params: { taskID: string } }>('/1/task/:taskID', { config: { anyKey: true } }, async (request) => {
    const status = store.taskStatus(parseTaskID(request.params.taskID));
    if (!status) throw createError('TASK_NOT_FOUND');
    return { status };
  });
}
