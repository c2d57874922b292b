import type { IndexSettings } from 'algoliasearch';
import { stringify } from 'safe-stable-stringify';
import type { CliContext } from '../context.ts';
import { apiStatus, CliError, messageOf } from '../errors.ts';
import { waitForTask } from '../importer/client.ts';
import type { ApiClient } from '../importer/client.ts';
import { browsePage, listRules, listSynonyms } from '../importer/index-content.ts';
import type { BrowsedPage } from '../importer/index-content.ts';
import { listRecommendRules, saveRecommendRules } from '../importer/recommend-rules.ts';
import { BatchSender } from '../importer/sender.ts';
import { createProgress } from '../io/progress.ts';
import type { Endpoint } from './endpoints.ts';
import type { IndexProgress, SyncState } from './state.ts';

export interface CopyOptions {
  source: Endpoint;
  destination: Endpoint;
  state: SyncState;
  /** Records per browsed page and per write batch. */
  batchSize: number;
  ctx: CliContext;
  /** A record the destination refused (too large for hosted Algolia, say): reported, and the sync goes on. */
  onRejected: (objectID: string, reason: string) => void;
}

const number = new Intl.NumberFormat('en-US');

/** Settings the API reports but that cannot be written (`primary`, `version`) or that are written later (`replicas`). */
function writableSettings(settings: IndexSettings & { primary?: string; version?: number }): IndexSettings {
  const { replicas: _replicas, primary: _primary, version: _version, ...writable } = settings;
  return writable;
}

/** `virtual(name)` → `name`: the index a replica entry names. */
const replicaIndex = (entry: string) => /^virtual\((.*)\)$/.exec(entry)?.[1] ?? entry;

/**
 * Copies one primary index and its replicas, step by step (see `SyncStep`). Everything but the replicas goes to a
 * temporary index first, which is then moved over the destination's index in one operation, as the official
 * client's `replaceAllObjects` does: until that move, searches on the destination see its old content whole.
 */
export async function copyIndex(indexName: string, options: CopyOptions): Promise<void> {
  const { source, state } = options;
  const settings = await source.client.getSettings({ indexName });
  if (settings.primary) {
    throw new CliError(`"${indexName}" is a replica of "${settings.primary}": sync "${settings.primary}", which brings its replicas along`);
  }
  const progress = state.progress(indexName);
  const advance = (step: IndexProgress['step']) => {
    progress.step = step;
    state.save();
  };
  if (progress.step === 'content') {
    await copyContent(indexName, progress.temporary, settings, options);
    advance('records');
  }
  if (progress.step === 'records') await copyRecords(indexName, progress, options);
  if (progress.step === 'move') {
    await moveIntoPlace(indexName, progress, options.destination.client);
    advance('replicas');
  }
  if (progress.step === 'replicas') {
    await copyReplicas(indexName, settings.replicas ?? [], options);
    advance('done');
  }
}

/** Settings, synonyms and rules of `from` on the source written to `to` on the destination. */
async function copyContent(from: string, to: string, settings: IndexSettings, { source, destination }: CopyOptions): Promise<void> {
  const client = destination.client;
  // Always written, even when empty: it creates the temporary index, which must exist to be moved.
  const written = await client.setSettings({ indexName: to, indexSettings: writableSettings(settings) });
  await waitForTask(client, to, written.taskID);
  await copySynonymsAndRules(from, to, source.client, client);
}

async function copySynonymsAndRules(from: string, to: string, source: ApiClient, destination: ApiClient): Promise<void> {
  const synonyms = await listSynonyms(source, from);
  if (synonyms.length > 0) {
    const task = await destination.saveSynonyms({ indexName: to, synonymHit: synonyms, replaceExistingSynonyms: true });
    await waitForTask(destination, to, task.taskID);
  }
  // A source without rules (or without the rules API) writes none: the destination need not have that API.
  const rules = await listRules(source, from);
  if (rules.length > 0) {
    const task = await destination.saveRules({ indexName: to, rules, clearExistingRules: true });
    await waitForTask(destination, to, task.taskID);
  }
}

/**
 * Recommend rules of `from` written to `to`, model by model (each replacing the destination's); a model without
 * rules at the source is left as it is, so a destination without Recommend need not have the API. They belong to
 * the index's name: written to the real index, after the move, never to the temporary one.
 */
async function copyRecommendRules(from: string, to: string, source: ApiClient, destination: ApiClient): Promise<void> {
  await saveRecommendRules(destination, to, await listRecommendRules(source, from), { onlyNonEmpty: true });
}

/** A cursor the source no longer recognises (its record was deleted and the index rebuilt): browse again. */
const isExpiredCursor = (error: unknown) => apiStatus(error) === 400 && /cursor/i.test(messageOf(error));

/**
 * The records, browsed from the source a page at a time (the next page is read while this one is written) and
 * written as one batch per page. The state records the cursor after each page the destination acknowledged.
 */
async function copyRecords(indexName: string, progress: IndexProgress, options: CopyOptions): Promise<void> {
  const { source, destination, state, batchSize, ctx } = options;
  const browse = (cursor: string | undefined) => {
    const page = browsePage(source.client, indexName, cursor, batchSize);
    page.catch(() => undefined); // Awaited below; this only keeps an abandoned read-ahead from crashing the process.
    return page;
  };
  let pending = browse(progress.cursor);
  let first: BrowsedPage;
  try {
    first = await pending;
  } catch (error) {
    if (!isExpiredCursor(error)) throw error;
    // Records copied from the old cursor may since have been deleted at the source: empty the copy, start over.
    const cleared = await destination.client.clearObjects({ indexName: progress.temporary });
    await waitForTask(destination.client, progress.temporary, cleared.taskID);
    Object.assign(progress, { cursor: undefined, copied: 0 });
    pending = browse(undefined);
    first = await pending;
  }
  if (progress.copied > 0) ctx.stderr.write(`Resuming "${indexName}" after ${progress.copied} records (state in ${state.path})\n`);
  const bar = createProgress({ stream: ctx.stderr, label: `Syncing ${indexName}`, total: Math.max(first.nbHits, progress.copied), unit: 'records' });
  const started = Date.now();
  const copiedAtStart = progress.copied;
  const rate = () => `${number.format(Math.round((progress.copied - copiedAtStart) / Math.max((Date.now() - started) / 1000, 0.001)))} records/s`;
  const sender = new BatchSender({
    client: destination.client,
    indexName: progress.temporary,
    batchSize,
    onAccepted: () => undefined,
    onRejected: (item, reason) => options.onRejected(String(item.record.objectID), reason),
  });
  try {
    for (;;) {
      const page = await pending;
      if (page.cursor) pending = browse(page.cursor);
      for (const record of page.records) await sender.add({ record, position: `objectID ${record.objectID}` });
      await sender.flush();
      progress.cursor = page.cursor;
      progress.copied += page.records.length;
      progress.lastTaskID = sender.lastTaskID ?? progress.lastTaskID;
      if (!page.cursor) progress.step = 'move';
      state.save();
      if (!page.cursor) break;
      bar.update(progress.copied, rate());
      if (ctx.signal.aborted) {
        throw new CliError(`Sync interrupted after ${progress.copied} records of "${indexName}": run the same command again to continue`);
      }
    }
  } finally {
    // Also on failure or Ctrl+C: a terminal's bar gives the cursor back.
    bar.stop(progress.copied, rate());
  }
}

async function moveIntoPlace(indexName: string, progress: IndexProgress, client: ApiClient): Promise<void> {
  if (progress.lastTaskID !== undefined) await waitForTask(client, progress.temporary, progress.lastTaskID);
  try {
    const moved = await client.operationIndex({ indexName: progress.temporary, operationIndexParams: { operation: 'move', destination: indexName } });
    await waitForTask(client, indexName, moved.taskID);
  } catch (error) {
    // A run stopped between the move and saving its state: the temporary index is gone because it was moved.
    if (apiStatus(error) === 404 && !(await client.indexExists({ indexName: progress.temporary }))) return;
    throw error;
  }
}

/**
 * The primary's Recommend rules, then its replicas, created the way Algolia wants, through the primary's
 * `replicas` setting; then each gets the settings in which the source's replica differs from what the
 * destination's has (a virtual replica accepts only a few settings of its own, and those are the ones that
 * differ), and its own synonyms, rules and Recommend rules.
 */
async function copyReplicas(indexName: string, replicas: string[], { source, destination }: CopyOptions): Promise<void> {
  const client = destination.client;
  await copyRecommendRules(indexName, indexName, source.client, client);
  const current = await client.getSettings({ indexName });
  if (stringify(current.replicas ?? []) !== stringify(replicas)) {
    const task = await client.setSettings({ indexName, indexSettings: { replicas } });
    await waitForTask(client, indexName, task.taskID);
  }
  for (const replica of replicas.map(replicaIndex)) {
    const wanted = writableSettings(await source.client.getSettings({ indexName: replica }));
    const present = (await client.getSettings({ indexName: replica })) as Record<string, unknown>;
    const changes = Object.fromEntries(Object.entries(wanted).filter(([key, value]) => stringify(value) !== stringify(present[key])));
    if (Object.keys(changes).length > 0) {
      const task = await client.setSettings({ indexName: replica, indexSettings: changes });
      await waitForTask(client, replica, task.taskID);
    }
    await copySynonymsAndRules(replica, replica, source.client, client);
    await copyRecommendRules(replica, replica, source.client, client);
  }
}
