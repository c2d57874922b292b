/**
 * What a write reaches besides the index in its path, checked before it is logged (all of it, so nothing is
 * applied in part): a key scoped to some indexes must not reach the others through relations between indexes.
 * Replicas named in settings (added, kept or removed: adding overwrites an existing index, removing detaches it),
 * `forwardToReplicas` targets, copy/move sources and destinations, multi-index batch targets, and the relatives of
 * a deleted index (its replicas are detached, its primary's replica list is edited). Every one must be in the
 * key's scope (`INDEX_NOT_ALLOWED`, 403). The names a write creates or writes to must be valid (400).
 *
 * Relations are read from the state search sees now; a write accepted earlier and not applied yet that changes
 * them (a replica added by another key) is not taken into account.
 */
import type { IndexSettings } from '@vitrine/protocol';
import type { Op } from '../storage/ops.ts';
import { parseReplicaName } from '../storage/registry.ts';
import type { IndexRegistry } from '../storage/registry.ts';
import type { Store } from '../storage/store.ts';
import { assertIndexName, isPlainObject } from '../storage/validate.ts';
import type { AuthContext } from './authenticate.ts';
import { allIndexesInScope, requireIndex } from './authenticate.ts';

/** Index names of a `replicas` list (`virtual(name)` → `name`); anything else than strings is ignored here. */
function replicaNames(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.filter((raw): raw is string => typeof raw === 'string').map((raw) => parseReplicaName(raw).name);
}

/** `replicas` of a settings patch, present (an array, or null for none) or not: the patch may not be validated yet. */
function patchReplicas(settings: IndexSettings): string[] | undefined {
  if (!isPlainObject(settings) || !Object.hasOwn(settings, 'replicas')) return undefined;
  return replicaNames(settings.replicas);
}

/** Every index the operation reads or changes, as the registry stands now. */
export function indexesTouchedBy(registry: IndexRegistry, op: Op): Set<string> {
  const names = new Set<string>();
  const add = (list: Iterable<string>) => {
    for (const name of list) names.add(name);
  };
  const currentReplicas = (name: string) => replicaNames(registry.peek(name)?.settings.replicas);
  // Deleting an index detaches its replicas and removes it from its primary's list.
  const relativesOf = (name: string) => {
    const primary = registry.peek(name)?.settings.primary;
    return typeof primary === 'string' ? [primary, ...currentReplicas(name)] : currentReplicas(name);
  };
  switch (op.kind) {
    case 'batch':
      for (const request of op.requests) {
        names.add(request.indexName);
        if (request.action === 'delete') add(relativesOf(request.indexName));
      }
      break;
    case 'deleteIndex':
      names.add(op.indexName);
      add(relativesOf(op.indexName));
      break;
    case 'deleteBy':
      names.add(op.indexName);
      break;
    case 'operation':
      names.add(op.indexName);
      names.add(op.destination);
      break;
    case 'settings': {
      names.add(op.indexName);
      const wanted = patchReplicas(op.settings);
      // A new list: the replicas it names (created, or existing indexes overwritten) and those it drops (detached).
      if (wanted) add([...wanted, ...currentReplicas(op.indexName)]);
      if (op.forwardToReplicas) add(currentReplicas(op.indexName));
      break;
    }
    case 'synonyms':
    case 'rules':
      names.add(op.indexName);
      if (op.forwardToReplicas) add(currentReplicas(op.indexName));
      break;
    case 'recommendRules':
      names.add(op.indexName);
      break;
  }
  return names;
}

/** Names the operation creates or writes to (deleting, or reading a copy/move source, takes any existing name). */
export function indexesWrittenBy(op: Op): string[] {
  switch (op.kind) {
    case 'batch':
      return op.requests.filter((request) => request.action !== 'delete').map((request) => request.indexName);
    case 'settings':
      return [op.indexName, ...(patchReplicas(op.settings) ?? [])];
    case 'operation':
      return [op.destination];
    case 'synonyms':
    case 'rules':
    case 'recommendRules':
      return [op.indexName];
    case 'deleteIndex':
    case 'deleteBy':
    case 'dictionaryEntries':
    case 'dictionarySettings':
      return [];
  }
}

/** 403 unless the key may touch every index the operation touches. */
export function requireWriteScope(auth: AuthContext, registry: IndexRegistry, op: Op): void {
  if (!allIndexesInScope(auth)) for (const name of indexesTouchedBy(registry, op)) requireIndex(auth, name);
}

/** 400 for an invalid name among those the operation creates or writes to. */
export function assertWriteNames(op: Op): void {
  for (const name of indexesWrittenBy(op)) assertIndexName(name);
}

/** The operation submitted once the key's scope and the names are checked: what the write routes do. */
export function submitWrite(store: Store, auth: AuthContext, op: Op): Promise<number> {
  requireWriteScope(auth, store.registry, op);
  assertWriteNames(op);
  return store.submit(op);
}
