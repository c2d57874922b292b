import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { IndexSettings, Rule, SynonymHit } from '@vitrine/protocol';
import type { CliContext } from '../context.ts';
import { apiStatus, CliError, messageOf, UsageError } from '../errors.ts';
import { waitForTask } from '../importer/client.ts';
import type { ApiClient } from '../importer/client.ts';
import { ErrorReport, formatCounts, formatRecordError } from '../importer/report.ts';
import type { ImportCounts } from '../importer/report.ts';
import { BatchSender } from '../importer/sender.ts';
import { checkRecommendRulesFile, saveRecommendRules } from '../importer/recommend-rules.ts';
import { detectFormat, openRecordSource } from '../importer/sources.ts';
import { createProgress, formatDuration } from '../io/progress.ts';
import type { Command } from './command.ts';
import { integerOption, stringOption } from './command.ts';
import { CONNECTION_HELP, connect, connectionOptions } from './connection.ts';

type ClientSettings = Parameters<ApiClient['setSettings']>[0]['indexSettings'];
type ClientRule = Parameters<ApiClient['saveRules']>[0]['rules'][number];

const number = new Intl.NumberFormat('en-US');
function readJsonFile<T>(path: string, what: string, check: (value: unknown) => boolean): T {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliError(`Cannot read the ${what} file ${path}: ${messageOf(error)}`);
  }
  if (!check(value)) throw new CliError(`The ${what} file ${path} does not hold ${what === 'settings' ? 'a JSON object' : 'a JSON array'}`);
  return value as T;
}

/**
 * Settings applied to the index that receives the records. `replicas` is held back until the records are in
 * place: on a temporary index (--replace) it would claim the live index's replicas. `primary` is read-only.
 */
function splitSettings(settings: IndexSettings | undefined): { main?: IndexSettings; replicas?: string[] } {
  if (!settings) return {};
  const { replicas, primary: _primary, ...main } = settings;
  return { main, replicas };
}

async function importRecords(
  ctx: CliContext,
  client: ApiClient,
  target: string,
  file: string,
  options: { format: string | undefined; batchSize: number; report: ErrorReport; replaceInvalidUtf8: boolean },
): Promise<ImportCounts & { lastTaskID: number | undefined }> {
  const source = openRecordSource(file, detectFormat(file, options.format), { replaceInvalidUtf8: options.replaceInvalidUtf8 });
  const progress = createProgress({ stream: ctx.stderr, label: 'Importing', total: source.totalBytes, unit: 'bytes' });
  const started = Date.now();
  let accepted = 0;
  let read = 0;
  let sent = 0;
  const detail = () => {
    const seconds = (Date.now() - started) / 1000;
    return `${number.format(accepted)} records sent, ${number.format(Math.round(accepted / Math.max(seconds, 0.001)))}/s`;
  };
  const sender = new BatchSender({
    client,
    indexName: target,
    batchSize: options.batchSize,
    onAccepted: (count) => {
      accepted += count;
      progress.update(source.bytesRead(), detail());
    },
    onRejected: (item, reason) =>
      options.report.add({ position: item.position, objectID: item.record.objectID as string | undefined, reason }),
  });
  for await (const item of source.items) {
    if (ctx.signal.aborted) throw new CliError('Import interrupted');
    read++;
    if (item.kind === 'error') {
      options.report.add({ position: item.position, objectID: item.objectID, reason: item.reason });
      continue;
    }
    sent++;
    await sender.add({ record: item.record, position: item.position });
  }
  await sender.flush();
  progress.stop(source.bytesRead(), detail());
  return { read, sent, accepted, rejected: options.report.size, lastTaskID: sender.lastTaskID };
}

export const importCommand: Command = {
  name: 'import',
  summary: 'Import records from a JSON, NDJSON or CSV file into an index',
  help: `Usage: vitrine import <file> --index <name> [options]

Streams records from a file into an index of a running server (any Algolia-compatible API), in batches.
Records the server refuses, and lines that cannot be read, are listed in an error report; the others land.

Formats (from the extension, or --format):
  .json            a JSON array of objects, on one line or pretty-printed, read element by element: each is
                   reported at the line where it starts, with its number in the array, and one that does not
                   parse costs only itself. Where brackets do not balance, reading resynchronises: a string
                   ends at the end of its line; a closing bracket closes the innermost open one of its kind
                   (one with none is ignored); a line starting with { or [ at no more indentation than the
                   array's first element starts the next element, the open one reported as not closed. On a
                   one-line array, a bracket left open costs the rest of the line. A file that is not a JSON
                   array is reported at line 1 and not read.
  .ndjson, .jsonl  one JSON object per line; blank lines are skipped, a malformed line is listed and skipped
  .csv             a header row, then one record per row. Cell types are inferred: empty = absent,
                   true/false = boolean, plain numbers = number, [..] or {..} = JSON, a|b = list, else text.
                   Force a type with a header suffix (zip:string, price:number, active:boolean, meta:json,
                   tags:list); dotted headers (hierarchicalCategories.lvl0) build nested objects.

Options:
  --index NAME         Index to import into (required)
  --settings FILE      Index settings (JSON object, as vitrine export writes them) to apply first
  --synonyms FILE      Synonyms (JSON array, as vitrine export writes them), replacing existing ones
  --rules FILE         Rules (JSON array, as vitrine export or Algolia's dashboard export writes them),
                       replacing existing ones
  --recommend-rules FILE
                       Recommend rules by model (JSON object, as vitrine export writes it), replacing the
                       rules of each model the file lists; written once the records are in place
  --replace            Replace the whole index atomically: import into a temporary index, then move it over
                       the target (searches see the old records until the switch). Only when every record
                       landed: if any was rejected, the index is left as it was and the exit code is 1
  --allow-rejected     With --replace: replace the index even when records were rejected, with those that
                       landed (the exit code is still 1)
  --batch-size N       Records per request (default 1000)
  --format FORMAT      json, ndjson or csv (default: from the extension)
  --errors FILE        Where to write the error report (default: <file>.errors.ndjson)
  --replace-invalid-utf8
                       Import lines that are not valid UTF-8 with the bad bytes replaced by U+FFFD
                       (default: such lines are rejected and listed)

Every line that can be read lands; each one that cannot (malformed, not an object, nested deeper or larger
than the server accepts, invalid UTF-8, a CSV quote never closed) is listed with its line number and reason.
The exit code is 0 only when every record landed (and, with --replace, the index was replaced).

${CONNECTION_HELP}`,
  options: {
    index: { type: 'string' },
    settings: { type: 'string' },
    synonyms: { type: 'string' },
    rules: { type: 'string' },
    'recommend-rules': { type: 'string' },
    replace: { type: 'boolean' },
    'allow-rejected': { type: 'boolean' },
    'batch-size': { type: 'string' },
    format: { type: 'string' },
    errors: { type: 'string' },
    'replace-invalid-utf8': { type: 'boolean' },
    ...connectionOptions,
  },
  positionals: { min: 1, max: 1 },
  async run(values, positionals, ctx) {
    const indexName = stringOption(values, 'index');
    if (!indexName) throw new CliError('vitrine import: --index is required');
    const file = resolve(ctx.cwd, positionals[0]);
    const batchSize = integerOption(values, 'batch-size', 1000);
    const format = stringOption(values, 'format');
    detectFormat(file, format);
    const settingsPath = stringOption(values, 'settings');
    const synonymsPath = stringOption(values, 'synonyms');
    const settings = settingsPath
      ? readJsonFile<IndexSettings>(resolve(ctx.cwd, settingsPath), 'settings', (v) => typeof v === 'object' && v !== null && !Array.isArray(v))
      : undefined;
    const synonyms = synonymsPath
      ? readJsonFile<SynonymHit[]>(resolve(ctx.cwd, synonymsPath), 'synonyms', Array.isArray)
      : undefined;
    const rulesPath = stringOption(values, 'rules');
    const rules = rulesPath ? readJsonFile<Rule[]>(resolve(ctx.cwd, rulesPath), 'rules', Array.isArray) : undefined;
    const recommendRulesPath = stringOption(values, 'recommend-rules');
    const recommendRules = recommendRulesPath
      ? checkRecommendRulesFile(readJsonFile<unknown>(resolve(ctx.cwd, recommendRulesPath), 'Recommend rules', () => true), recommendRulesPath)
      : undefined;
    const client = connect(values, ctx);
    const replace = values.replace === true;
    const allowRejected = values['allow-rejected'] === true;
    if (allowRejected && !replace) throw new UsageError('vitrine import: --allow-rejected goes with --replace');
    const report = new ErrorReport(resolve(ctx.cwd, stringOption(values, 'errors') ?? `${positionals[0]}.errors.ndjson`));
    const { main, replicas } = splitSettings(settings);
    const started = Date.now();

    // With --replace, everything goes to a temporary index first; the live one is untouched until the move.
    const target = replace ? `${indexName}_tmp_${Date.now().toString(36)}` : indexName;
    let counts: ImportCounts;
    /** With --replace: records were rejected and the live index is kept as it was. */
    let kept: boolean;
    let existed: boolean;
    try {
      existed = replace && (await client.indexExists({ indexName }));
      if (existed) {
        // Keep what the records do not carry (settings, synonyms, rules), as the official replaceAllObjects does.
        const copy = await client.operationIndex({
          indexName,
          operationIndexParams: { operation: 'copy', destination: target, scope: ['settings', 'synonyms', 'rules'] },
        });
        await waitForTask(client, indexName, copy.taskID);
      }
      if (main && Object.keys(main).length > 0) {
        const task = await client.setSettings({ indexName: target, indexSettings: main as ClientSettings });
        await waitForTask(client, target, task.taskID);
      }
      if (synonyms) {
        const task = await client.saveSynonyms({ indexName: target, synonymHit: synonyms, replaceExistingSynonyms: true });
        await waitForTask(client, target, task.taskID);
      }
      if (rules) {
        const task = await client.saveRules({ indexName: target, rules: rules as ClientRule[], clearExistingRules: true });
        await waitForTask(client, target, task.taskID);
      }
      const result = await importRecords(ctx, client, target, file, { format, batchSize, report, replaceInvalidUtf8: values['replace-invalid-utf8'] === true });
      counts = result;
      if (result.lastTaskID !== undefined) {
        await waitForTask(client, target, result.lastTaskID);
      }
      // A replacement missing records would lose them from the live index: only what is whole replaces it.
      kept = replace && report.size > 0 && !allowRejected;
      if (kept) {
        const task = await client.deleteIndex({ indexName: target });
        await waitForTask(client, target, task.taskID);
      } else if (replace) {
        // An empty file still replaces: the temporary index must exist before it can be moved.
        if (result.lastTaskID === undefined && !main && !synonyms && !rules) {
          const task = await client.setSettings({ indexName: target, indexSettings: {} });
          await waitForTask(client, target, task.taskID);
        }
        const move = await client.operationIndex({
          indexName: target,
          operationIndexParams: { operation: 'move', destination: indexName },
        });
        await waitForTask(client, indexName, move.taskID);
      }
      // Recommend rules belong to the index's name: written to it (not to the temporary index), once it is whole.
      if (recommendRules && !kept) await saveRecommendRules(client, indexName, recommendRules);
      if (replicas && !kept) {
        const task = await client.setSettings({ indexName, indexSettings: { replicas } });
        await waitForTask(client, indexName, task.taskID);
      }
    } catch (error) {
      if (replace) await client.deleteIndex({ indexName: target }).catch(() => undefined);
      if (error instanceof CliError) throw error;
      const status = apiStatus(error);
      throw new CliError(`Import into "${indexName}" failed${status ? ` (HTTP ${status})` : ''}: ${messageOf(error)}`, { cause: error });
    } finally {
      report.close();
    }

    const seconds = (Date.now() - started) / 1000;
    const { accepted } = counts;
    if (!kept) {
      ctx.stdout.write(
        `${replace ? 'Replaced' : 'Imported into'} "${indexName}": ${number.format(accepted)} records in ${formatDuration(seconds)}` +
          ` (${number.format(Math.round(accepted / Math.max(seconds, 0.001)))}/s) from ${basename(file)}.\n`,
      );
    }
    ctx.stdout.write(`${formatCounts(counts)}\n`);
    if (report.size > 0) {
      ctx.stderr.write(`${number.format(report.size)} record(s) rejected; the full list is in ${report.path}:\n`);
      for (const error of report.sample) ctx.stderr.write(`  ${formatRecordError(error)}\n`);
      if (report.size > report.sample.length) ctx.stderr.write(`  … and ${number.format(report.size - report.sample.length)} more\n`);
      if (kept) {
        throw new CliError(
          `"${indexName}" was not replaced: ${number.format(report.size)} of ${number.format(counts.read)} records were rejected; ` +
            `${existed ? 'it still holds what it held before' : 'it was not created'}. --allow-rejected replaces it with the ${number.format(accepted)} records that landed.`,
        );
      }
      throw new CliError(`Import finished with ${number.format(report.size)} rejected record(s)`);
    }
  },
};
