/**
 * Every write the console makes is an Algolia task: it is acknowledged at once and published (searchable) a
 * little later. The console keeps the tasks it started in this tab (sessionStorage, the last 100) so the
 * Activity screen can show them and their state; Algolia's API has no "list recent tasks" call.
 */
import { useSyncExternalStore } from 'react';
import type { AdminClient } from './client.ts';

export interface TaskEntry {
  taskID: number;
  indexName: string;
  /** What the operator did ("Save record 42"). */
  label: string;
  at: string;
  status: 'notPublished' | 'published' | 'failed';
}

const storageKey = 'vitrine.console.tasks';
const limit = 100;
const listeners = new Set<() => void>();
let cache: TaskEntry[] | undefined;

function load(): TaskEntry[] {
  if (cache) return cache;
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(storageKey) ?? '[]');
    cache = Array.isArray(parsed) ? (parsed as TaskEntry[]) : [];
  } catch {
    cache = [];
  }
  return cache;
}

function save(entries: TaskEntry[]): void {
  cache = entries.slice(0, limit);
  try {
    sessionStorage.setItem(storageKey, JSON.stringify(cache));
  } catch {
    // Kept in memory for this page.
  }
  for (const listener of listeners) listener();
}

function update(taskID: number, status: TaskEntry['status']): void {
  save(load().map((entry) => (entry.taskID === taskID ? { ...entry, status } : entry)));
}

export function useTaskLog(): TaskEntry[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    load,
    load,
  );
}

/** Records a task the console started and resolves once the server says it is published. */
export async function publish(client: AdminClient, indexName: string, taskID: number, label: string): Promise<void> {
  await publishWith(() => client.waitForTask({ indexName, taskID }), indexName, taskID, label);
}

/** `publish` for a task another API polls its own way (Recommend rules: `getRecommendStatus`). */
export async function publishWith(wait: () => Promise<unknown>, indexName: string, taskID: number, label: string): Promise<void> {
  save([{ taskID, indexName, label, at: new Date().toISOString(), status: 'notPublished' }, ...load().filter((entry) => entry.taskID !== taskID)]);
  try {
    await wait();
    update(taskID, 'published');
  } catch (error) {
    update(taskID, 'failed');
    throw error;
  }
}

/** Asks the server again for a task's state (the Activity screen's refresh). */
export async function refreshTask(client: AdminClient, entry: TaskEntry): Promise<void> {
  const { status } = await client.getTask({ indexName: entry.indexName, taskID: entry.taskID });
  update(entry.taskID, status);
}
