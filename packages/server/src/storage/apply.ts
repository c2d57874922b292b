/**
 * Applies one logged operation to the in-memory state. Deterministic: the same state and operation always give
 * the same result, which is what makes "load snapshot + replay the log" restore exactly what was acknowledged.
 * Batches are atomic: their net effect is computed first, then handed to the engine in one `saveObjects`
 * (atomic in the engine) and one `deleteObjects`.
 */
import { SearchIndex } from '@vitrine/engine';
import type { IndexRecord, IndexSettings } from '@vitrine/protocol';
import { applyDictionaryEntries, applyDictionarySettings } from './dictionaries.ts';
import type { LoggedBatchRequest, Op } from './ops.ts';
import { applyPartial } from './partial.ts';
import { computedEmbedders } from './embedder-settings.ts';
import { followText, withFilledVector } from './vector-fill.ts';
import { engineSettings, parseReplicaName } from './registry.ts';
import type { IndexEntry, IndexRegistry } from './registry.ts';

export function applyOp(registry: IndexRegistry, op: Op): void {
  const steps = applyOpInSteps(registry, op);
  while (!steps.next().done);
}

/**
 * `applyOp` in steps: a batch's records go to the engine one per step (`saveObjectsInSteps`), any other
 * operation in one. Between steps the batch's indexes are half written: nothing may read or write them until
 * the last step (see `OpInProgress`).
 */
export function* applyOpInSteps(registry: IndexRegistry, op: Op): Generator<void, void, void> {
  if (op.kind === 'batch') yield* applyBatch(registry, op.requests, op.at);
  else applyOtherOp(registry, op);
}

function applyOtherOp(registry: IndexRegistry, op: Exclude<Op, { kind: 'batch' }>): void {
  switch (op.kind) {
    case 'settings':
      return applySettings(registry, op.indexName, op.settings, op.forwardToReplicas, op.at);
    case 'deleteIndex':
      return deleteIndex(registry, op.indexName);
    case 'deleteBy':
      return deleteBy(registry, op.indexName, op.params, op.at);
    case 'operation':
      return op.operation === 'copy'
        ? copyIndex(registry, op.indexName, op.destination, op.scope, op.at)
        : moveIndex(registry, op.indexName, op.destination, op.at);
    case 'synonyms':
      return applySynonyms(registry, op);
    case 'rules':
      return applyRules(registry, op);
    case 'dictionaryEntries':
      return applyDictionaryEntries(registry, op);
    case 'dictionarySettings':
      return applyDictionarySettings(registry, op);
    case 'recommendRules':
      return registry.recommendRules.apply(op);
  }
}

function* applyBatch(registry: IndexRegistry, requests: LoggedBatchRequest[], at: string): Generator<void, void, void> {
  const byIndex = new Map<string, LoggedBatchRequest[]>();
  for (const request of requests) {
    const list = byIndex.get(request.indexName) ?? [];
    list.push(request);
    byIndex.set(request.indexName, list);
  }
  for (const [indexName, list] of byIndex) yield* applyIndexBatch(registry, indexName, list, at);
}

function* applyIndexBatch(registry: IndexRegistry, indexName: string, requests: LoggedBatchRequest[], at: string): Generator<void, void, void> {
  if (requests.some((r) => r.action === 'delete')) {
    // `delete` removes the index itself; what follows it in the same batch starts from a fresh index.
    const last = requests.map((r) => r.action).lastIndexOf('delete');
    deleteIndex(registry, indexName);
    requests = requests.slice(last + 1);
    if (requests.length === 0) return;
  }
  const entry = registry.ensure(indexName, at);
  // Writes to replicas are refused when accepted; this catches one that became a replica in between, so its
  // records never land in the primary (the same on replay: deterministic).
  if (!entry.engine) throw new Error(`batch for ${indexName} skipped: it became a replica of ${String(entry.settings.primary)}`);
  // The records live in the search threads only: this registry keeps the index's settings and timestamps.
  if (!registry.recordsHere) {
    entry.updatedAt = at;
    return;
  }
  const engine = entry.engine;
  // Computed embedders' vectors follow their record's text (`vector-fill.ts`): only their indexes pay for reading records replaced whole.
  const rest = computedEmbedders(entry.settings);
  const follow = (before: () => IndexRecord | undefined, next: IndexRecord, body: Record<string, unknown>): IndexRecord =>
    rest.length === 0 ? next : followText(rest, entry.settings, before(), next, body);
  // The batch's net effect: objectID → final record, or null for a deletion.
  const overlay = new Map<string, IndexRecord | null>();
  let cleared = false;
  const current = (objectID: string): IndexRecord | undefined => {
    const pending = overlay.get(objectID);
    if (pending !== undefined) return pending ?? undefined;
    return cleared ? undefined : engine.getObject(objectID);
  };
  for (const request of requests) {
    const body = request.body ?? {};
    const objectID = typeof body.objectID === 'string' ? body.objectID : undefined;
    switch (request.action) {
      case 'addObject':
      case 'updateObject':
        if (objectID !== undefined) overlay.set(objectID, follow(() => current(objectID), { ...body, objectID }, body));
        break;
      case 'partialUpdateObject':
      case 'partialUpdateObjectNoCreate': {
        if (objectID === undefined) break;
        const existing = current(objectID);
        const create = request.createIfNotExists ?? request.action === 'partialUpdateObject';
        if (!existing && !create) break;
        overlay.set(objectID, follow(() => existing, applyPartial(existing, body, objectID), body));
        break;
      }
      case 'fillVector': {
        const existing = objectID === undefined || request.vector === undefined ? undefined : current(objectID);
        const filled = existing === undefined ? undefined : withFilledVector(existing, request.vector!, entry.settings);
        if (filled !== undefined) overlay.set(objectID!, filled);
        break;
      }
      case 'deleteObject':
        if (objectID !== undefined) overlay.set(objectID, null);
        break;
      case 'clear':
        cleared = true;
        overlay.clear();
        break;
      case 'delete':
        break;
    }
  }
  const saves: IndexRecord[] = [];
  const deletes: string[] = [];
  for (const [objectID, record] of overlay) {
    if (record) saves.push(record);
    else deletes.push(objectID);
  }
  if (cleared) {
    // Validate the surviving records on a scratch index first, so a rejected batch leaves the records untouched.
    if (saves.length > 0) new SearchIndex(engine.getSettings()).saveObjects(saves);
    engine.clear();
  }
  if (saves.length > 0) yield* engine.saveObjectsInSteps(saves);
  if (deletes.length > 0) engine.deleteObjects(deletes);
  entry.updatedAt = at;
}

function applySettings(
  registry: IndexRegistry,
  indexName: string,
  patch: IndexSettings,
  forwardToReplicas: boolean,
  at: string,
): void {
  const entry = registry.ensure(indexName, at);
  const next: IndexSettings = { ...entry.settings };
  for (const [key, value] of Object.entries(patch)) {
    if (key === 'replicas' || key === 'primary' || key === '__proto__') continue;
    // `null` resets a setting to its default, as Algolia does.
    if (value === null) delete next[key];
    else next[key] = value;
  }
  if ('replicas' in patch) updateReplicas(registry, entry, Array.isArray(patch.replicas) ? patch.replicas : [], at);
  if (Array.isArray(entry.settings.replicas) && entry.settings.replicas.length > 0) next.replicas = entry.settings.replicas;
  else delete next.replicas;
  entry.settings = next;
  entry.engine?.setSettings(engineSettings(next));
  entry.updatedAt = at;
  if (forwardToReplicas) {
    const { replicas: _replicas, ...forwarded } = patch;
    for (const raw of entry.settings.replicas ?? []) {
      const replica = registry.get(parseReplicaName(raw).name);
      if (replica) applySettings(registry, replica.name, forwarded, false, at);
    }
  }
}

/** Attaches new replicas (a standard one starts from a copy of the primary's settings) and detaches removed ones. */
function updateReplicas(registry: IndexRegistry, primary: IndexEntry, wanted: string[], at: string): void {
  const before = new Map((primary.settings.replicas ?? []).map((raw) => [parseReplicaName(raw).name, raw]));
  const after = new Map(wanted.map((raw) => [parseReplicaName(raw).name, raw]));
  for (const name of before.keys()) if (!after.has(name)) detachReplica(registry, name, primary, at);
  for (const [name, raw] of after) {
    const existing = registry.get(name);
    if (existing && existing.settings.primary === primary.name) continue;
    const { virtual } = parseReplicaName(raw);
    const settings: IndexSettings = virtual ? {} : engineSettings(primary.settings);
    registry.set({
      name,
      createdAt: existing?.createdAt ?? at,
      updatedAt: at,
      settings: { ...settings, primary: primary.name },
      synonyms: new Map(primary.synonyms),
      rules: new Map(primary.rules),
      engine: undefined,
      virtual,
    });
  }
  primary.settings = { ...primary.settings, replicas: wanted };
}

/**
 * A replica leaving its primary: a standard replica becomes a regular index with its own copy of the records
 * (Algolia keeps its content), a virtual one (which never had records) is deleted.
 */
function detachReplica(registry: IndexRegistry, name: string, primary: IndexEntry, at: string): void {
  const replica = registry.get(name);
  if (!replica || replica.settings.primary !== primary.name) return;
  if (replica.virtual) {
    registry.delete(name);
    return;
  }
  const settings = { ...engineSettings(primary.settings), ...engineSettings(replica.settings) };
  const engine = new SearchIndex(settings);
  if (primary.engine) engine.saveObjects([...primary.engine.records()]);
  engine.setSynonyms([...replica.synonyms.values()]);
  engine.setRules([...replica.rules.values()]);
  registry.set({ ...replica, settings, engine, virtual: false, updatedAt: at });
}

function deleteIndex(registry: IndexRegistry, indexName: string): void {
  const entry = registry.get(indexName);
  if (!entry) return;
  for (const raw of entry.settings.replicas ?? []) detachReplica(registry, parseReplicaName(raw).name, entry, entry.updatedAt);
  const primary = registry.primaryOf(entry);
  if (primary) {
    const remaining = (primary.settings.replicas ?? []).filter((raw) => parseReplicaName(raw).name !== indexName);
    primary.settings = { ...primary.settings, replicas: remaining };
    if (remaining.length === 0) delete primary.settings.replicas;
  }
  registry.delete(indexName);
}

function deleteBy(registry: IndexRegistry, indexName: string, params: Record<string, unknown>, at: string): void {
  const entry = registry.get(indexName);
  if (!entry?.engine) return;
  if (!registry.recordsHere) {
    entry.updatedAt = at;
    return;
  }
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = entry.engine.browse({ ...params, query: '', hitsPerPage: 1000, attributesToRetrieve: ['objectID'], cursor });
    for (const hit of page.hits) ids.push(hit.objectID);
    cursor = page.cursor;
  } while (cursor);
  if (ids.length > 0) entry.engine.deleteObjects(ids);
  entry.updatedAt = at;
}

function copyIndex(
  registry: IndexRegistry,
  source: string,
  destination: string,
  scope: Array<'settings' | 'synonyms' | 'rules'> | undefined,
  at: string,
): void {
  const from = registry.get(source);
  const fromSettings = from ? { ...engineSettings(from.settings), ...(registry.searchSettingsOf(from) ?? {}) } : {};
  if (scope && scope.length > 0) {
    // A scoped copy leaves the destination's records (and anything outside the scope) as they are.
    const to = registry.ensure(destination, at);
    if (scope.includes('settings')) {
      to.settings = { ...fromSettings, ...(to.settings.replicas ? { replicas: to.settings.replicas } : {}) };
      if (to.settings.primary === undefined) to.engine?.setSettings(engineSettings(to.settings));
    }
    if (scope.includes('synonyms')) {
      to.synonyms = new Map(from?.synonyms ?? []);
      to.engine?.setSynonyms([...to.synonyms.values()]);
    }
    if (scope.includes('rules')) {
      to.rules = new Map(from?.rules ?? []);
      to.engine?.setRules([...to.rules.values()]);
    }
    to.updatedAt = at;
    return;
  }
  const engine = new SearchIndex(fromSettings);
  if (from) engine.saveObjects([...registry.recordsOf(from)]);
  const synonyms = new Map(from?.synonyms ?? []);
  engine.setSynonyms([...synonyms.values()]);
  const rules = new Map(from?.rules ?? []);
  engine.setRules([...rules.values()]);
  const previous = registry.get(destination);
  registry.set({ name: destination, createdAt: previous?.createdAt ?? at, updatedAt: at, settings: fromSettings, synonyms, rules, engine, virtual: false });
}

function moveIndex(registry: IndexRegistry, source: string, destination: string, at: string): void {
  const from = registry.get(source);
  // Moving a missing index is a no-op, as Algolia documents.
  if (!from || !from.engine) return;
  const previous = registry.get(destination);
  // The destination keeps its replicas: they now search the moved records.
  const settings: IndexSettings = { ...engineSettings(from.settings) };
  if (previous?.settings.replicas) settings.replicas = previous.settings.replicas;
  from.engine.setSettings(engineSettings(settings));
  registry.delete(source);
  registry.set({
    name: destination,
    createdAt: previous?.createdAt ?? from.createdAt,
    updatedAt: at,
    settings,
    synonyms: from.synonyms,
    rules: from.rules,
    engine: from.engine,
    virtual: false,
  });
}

/** The index an operation names and, with `forwardToReplicas`, each of its replicas (those that exist). */
function targetsOf(registry: IndexRegistry, op: { indexName: string; at: string; forwardToReplicas: boolean }): IndexEntry[] {
  const names = [op.indexName];
  const entry = registry.ensure(op.indexName, op.at);
  if (op.forwardToReplicas) for (const raw of entry.settings.replicas ?? []) names.push(parseReplicaName(raw).name);
  return names.map((name) => registry.get(name)).filter((target): target is IndexEntry => target !== undefined);
}

function applySynonyms(registry: IndexRegistry, op: Extract<Op, { kind: 'synonyms' }>): void {
  for (const target of targetsOf(registry, op)) {
    if (op.action === 'clear' || (op.action === 'save' && op.replaceExisting)) target.synonyms = new Map();
    if (op.action === 'save') for (const hit of op.hits ?? []) target.synonyms.set(hit.objectID, hit);
    if (op.action === 'delete' && op.objectID !== undefined) target.synonyms.delete(op.objectID);
    target.engine?.setSynonyms([...target.synonyms.values()]);
    target.updatedAt = op.at;
  }
}

/** Like synonyms: to the index, and with `forwardToReplicas` to each of its replicas. */
function applyRules(registry: IndexRegistry, op: Extract<Op, { kind: 'rules' }>): void {
  for (const target of targetsOf(registry, op)) {
    if (op.action === 'clear' || (op.action === 'save' && op.clearExisting)) target.rules = new Map();
    if (op.action === 'save') for (const rule of op.rules ?? []) target.rules.set(rule.objectID, rule);
    if (op.action === 'delete' && op.objectID !== undefined) target.rules.delete(op.objectID);
    target.engine?.setRules([...target.rules.values()]);
    target.updatedAt = op.at;
  }
}
