import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readEnvironment } from '../config/env.ts';
import type { CliContext } from '../context.ts';
import { CliError, messageOf, UsageError } from '../errors.ts';
import type { ApiClient } from '../importer/client.ts';
import { comparisonTable, fingerprint, identical } from '../sync/checksum.ts';
import type { Comparison } from '../sync/checksum.ts';
import { copyIndex } from '../sync/copy-index.ts';
import { checkAccess, destinationEndpoint, explain, sourceEndpoint } from '../sync/endpoints.ts';
import type { Endpoint } from '../sync/endpoints.ts';
import { SYNC_TEMPORARY, SyncState } from '../sync/state.ts';
import type { Command, OptionValues } from './command.ts';
import { integerOption, listOption, stringOption } from './command.ts';
import { connectionOptions, connectionSettings } from './connection.ts';

/** The primary indices to copy: those named (each must exist and be a primary), else every primary of the source. */
async function indicesToSync(client: ApiClient, named: string[]): Promise<string[]> {
  const { items } = await client.listIndices();
  const primaries = items.filter((item) => !item.primary && !SYNC_TEMPORARY.test(item.name)).map((item) => item.name);
  if (named.length === 0) return primaries.sort();
  for (const name of named) {
    const found = items.find((item) => item.name === name);
    if (!found) throw new CliError(`The source has no index "${name}"`);
    if (found.primary) throw new CliError(`"${name}" is a replica of "${found.primary}": sync "${found.primary}", which brings its replicas along`);
  }
  return [...new Set(named)];
}

/** `--restart`: the temporary indices an unfinished run left on the destination are deleted with its state. */
async function discardRun(state: SyncState, destination: Endpoint): Promise<void> {
  for (const temporary of state.unfinishedTemporaries()) {
    await destination.client.deleteIndex({ indexName: temporary }).catch(() => undefined);
  }
  state.remove();
}

/** The state file left by an earlier run for this source and destination, or a new one. */
async function openState(path: string, identity: string, restart: boolean, destination: Endpoint): Promise<SyncState> {
  const earlier = SyncState.read(path);
  if (earlier && restart) await discardRun(earlier, destination);
  else if (earlier && earlier.destination !== identity) {
    throw new CliError(
      `${path} holds an unfinished sync between other applications (${earlier.destination}): run that one again to finish it, ` +
        'start over with --restart, or keep this one apart with --state FILE',
    );
  } else if (earlier) return earlier;
  return SyncState.create(path, identity);
}

/**
 * The indices compared at the end: each primary, then its standard replicas, which hold their own copy of the
 * records on the destination (a virtual replica searches its primary's).
 */
async function withStandardReplicas(primaries: string[], source: Endpoint): Promise<string[]> {
  const all: string[] = [];
  for (const indexName of primaries) {
    all.push(indexName);
    const { replicas = [] } = await source.client.getSettings({ indexName }).catch((error: unknown) => {
      throw explain(error, `Reading the settings of "${indexName}" failed`, [source]);
    });
    all.push(...replicas.filter((replica) => !replica.startsWith('virtual(')));
  }
  return all;
}

async function compare(indices: string[], source: Endpoint, destination: Endpoint, batchSize: number): Promise<Comparison[]> {
  const comparisons: Comparison[] = [];
  for (const indexName of indices) {
    try {
      const [fromSource, fromDestination] = await Promise.all([
        fingerprint(source.client, indexName, batchSize),
        fingerprint(destination.client, indexName, batchSize),
      ]);
      comparisons.push({ indexName, source: fromSource, destination: fromDestination });
    } catch (error) {
      throw explain(error, `Comparing "${indexName}" failed`, [source, destination]);
    }
  }
  return comparisons;
}

/**
 * The destination's admin key, from `VITRINE_SYNC_API_KEY` or `--to-api-key-file`: never from the command line,
 * which every user of the machine can read (`ps`, `/proc/<pid>/cmdline`) and shell history keeps (issue 49).
 */
function destinationKey(values: OptionValues, ctx: CliContext): string {
  if (values['to-api-key'] !== undefined) {
    throw new UsageError(
      'vitrine sync: --to-api-key is no longer accepted: a key on the command line is visible to every user of the machine (ps, /proc) ' +
        'and kept in shell history. Set VITRINE_SYNC_API_KEY, or put the key in a file and give --to-api-key-file FILE',
    );
  }
  const fromEnvironment = ctx.env.VITRINE_SYNC_API_KEY?.trim() || undefined;
  const file = stringOption(values, 'to-api-key-file');
  if (fromEnvironment !== undefined && file !== undefined) throw new UsageError('vitrine sync: give the destination key either VITRINE_SYNC_API_KEY or --to-api-key-file, not both');
  if (file === undefined) {
    if (fromEnvironment === undefined) throw new UsageError("vitrine sync: the destination's admin key is required: set VITRINE_SYNC_API_KEY, or give --to-api-key-file FILE");
    return fromEnvironment;
  }
  const path = resolve(ctx.cwd, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`Cannot read the key file ${path}: ${messageOf(error)}`);
  }
  const key = text.split(/\r?\n/)[0].trim();
  if (key === '') throw new CliError(`The key file ${path} holds no key (its first line is empty)`);
  return key;
}

export const syncCommand: Command = {
  name: 'sync',
  summary: 'Copy indices (records, settings, replicas, synonyms, rules, Recommend rules) to hosted Algolia or another server',
  help: `Usage: VITRINE_SYNC_API_KEY=KEY vitrine sync --to-app-id ID [--to-url URL] [--index NAME ...] [options]

Copies indices from this Vitrine server to another Algolia-compatible application: hosted Algolia by default,
or the server at --to-url (another Vitrine). Each index's settings, synonyms, rules and records go to a
temporary index on the destination, which is then moved over the destination's index in one operation (searches
there see the old content until then); the index's Recommend rules follow (to the index itself: they belong to
its name), then replicas, created through the primary's "replicas" setting, with their own settings. Records are browsed and written in batches. Then each index is compared on both sides (record
count and checksum); the command fails if any differs.

An interrupted sync (Ctrl+C, a crash, a lost connection) continues where it stopped when run again: the state is
kept in <data folder>/sync-state.json (or --state FILE). --restart discards it and starts over.

Destination:
  --to-app-id ID       Application ID of the destination (required)
  VITRINE_SYNC_API_KEY Its admin API key, from the environment (or:)
  --to-api-key-file F  A file holding it (its first line). One of the two is required; the key is never
                       printed. --to-api-key KEY is refused: on the command line, every user of the machine
                       sees it (ps, /proc), and shell history keeps it
  --to-url URL         A server to sync to instead of hosted Algolia, such as http://other-host:3000

Options:
  --index NAME         An index to copy, with its replicas (repeatable; default: every primary index)
  --state FILE         Where to keep the resumable state (default: sync-state.json in $VITRINE_DATA_DIR)
  --restart            Forget an unfinished sync (its temporary indices are deleted) and start over
  --batch-size N       Records per page read and per batch written (default 1000, at most 1000)

Source (this server):
  --url URL            Default $VITRINE_URL or http://localhost:3000
  --app-id ID          Default $VITRINE_APP_ID or vitrine
  --api-key KEY        Admin key; default $VITRINE_ADMIN_API_KEY, else the key kept in $VITRINE_DATA_DIR`,
  options: {
    'to-app-id': { type: 'string' },
    // Declared so that it is refused with the reason, rather than as an unknown option.
    'to-api-key': { type: 'string' },
    'to-api-key-file': { type: 'string' },
    'to-url': { type: 'string' },
    index: { type: 'string', multiple: true },
    state: { type: 'string' },
    restart: { type: 'boolean' },
    'batch-size': { type: 'string' },
    ...connectionOptions,
  },
  positionals: { min: 0, max: 0 },
  async run(values, _positionals, ctx) {
    const appId = stringOption(values, 'to-app-id');
    if (!appId) throw new UsageError('vitrine sync: --to-app-id is required');
    const apiKey = destinationKey(values, ctx);
    const batchSize = integerOption(values, 'batch-size', 1000);
    if (batchSize > 1000) throw new UsageError(`--batch-size must be at most 1000 (the browse page limit), got ${batchSize}`);
    const statePath = resolve(ctx.cwd, stringOption(values, 'state') ?? join(readEnvironment(ctx.env, ctx.cwd).dataDir, 'sync-state.json'));
    const source = sourceEndpoint(connectionSettings(values, ctx));
    const destination = destinationEndpoint({ appId, apiKey, url: stringOption(values, 'to-url') });
    if (source.identity === destination.identity) throw new UsageError('vitrine sync: the source and the destination are the same application');

    await checkAccess(source);
    await checkAccess(destination);
    const indices = await indicesToSync(source.client, listOption(values, 'index')).catch((error: unknown) => {
      throw explain(error, 'Listing the source indices failed', [source]);
    });
    const state = await openState(statePath, `${source.identity} -> ${destination.identity}`, values.restart === true, destination);
    await syncAll(indices, { source, destination, state, batchSize, ctx });
  },
};

async function syncAll(
  indices: string[],
  options: { source: Endpoint; destination: Endpoint; state: SyncState; batchSize: number; ctx: CliContext },
): Promise<void> {
  const { source, destination, state, batchSize, ctx } = options;
  const rejected: string[] = [];
  let rejectedCount = 0;
  const onRejected = (objectID: string, reason: string) => {
    rejectedCount++;
    if (rejected.length < 5) rejected.push(`objectID ${JSON.stringify(objectID)}: ${reason}`);
  };
  for (const indexName of indices) {
    if (state.progress(indexName).step === 'done') continue;
    try {
      await copyIndex(indexName, { source, destination, state, batchSize, ctx, onRejected });
    } catch (error) {
      throw explain(error, `Sync of "${indexName}" failed`, [source, destination]);
    }
  }
  // Finished: the next run is a fresh sync, not a resumption.
  state.remove();

  const compared = await withStandardReplicas(indices, source);
  ctx.stderr.write(`Comparing ${compared.length} ${compared.length === 1 ? 'index' : 'indices'} on both sides…\n`);
  const comparisons = await compare(compared, source, destination, batchSize);
  ctx.stdout.write(comparisonTable(comparisons));
  if (rejectedCount > 0) {
    ctx.stderr.write(`${destination.label} refused ${rejectedCount} record(s):\n${rejected.map((line) => `  ${line}\n`).join('')}`);
  }
  const different = comparisons.filter((comparison) => !identical(comparison));
  if (different.length > 0) {
    throw new CliError(`${different.length} of ${comparisons.length} indices differ between the source and ${destination.label}`);
  }
  ctx.stdout.write(`Synced ${comparisons.length} ${comparisons.length === 1 ? 'index' : 'indices'} to ${destination.label}.\n`);
}
