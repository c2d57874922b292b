/**
 * `vitrine backup --to DIR`: asks a running server for a consistent copy of its data folder, written by the
 * server into DIR on its own machine (`POST /1/vitrine/backup`, a Vitrine extension: see the server's DESIGN.md,
 * *Backups*), and reports the task the copy holds and each index's record count then.
 *
 * The server streams JSON lines (progress, then the report or why it failed); this command prints them as they
 * come. Whatever stops it (Ctrl-C, a lost connection, a refusal), DIR is left as it was.
 */
import { resolve } from 'node:path';
import type { CliContext } from '../context.ts';
import { CliError, messageOf, UsageError } from '../errors.ts';
import { HOSTED_ALGOLIA } from '../importer/client.ts';
import type { Command } from './command.ts';
import { stringOption } from './command.ts';
import { CONNECTION_HELP, connectionOptions, connectionSettings } from './connection.ts';

interface BackupIndex {
  name: string;
  records: number | null;
  replicaOf?: string;
}

type BackupLine =
  | { event: 'started'; to: string; replacing: boolean; notes: string[] }
  | { event: 'snapshot'; taskID: number }
  | { event: 'progress'; bytes: number }
  | { event: 'done'; to: string; taskID: number; indexes: BackupIndex[]; bytes: number }
  | { event: 'failed'; message: string; status: number; id?: string };

const number = new Intl.NumberFormat('en-US');

function size(bytes: number): string {
  return bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${number.format(Math.ceil(bytes / 1024))} KB`;
}

/** The report: the task, then one line per index (a replica holds its primary's records). */
export function formatBackupReport(report: Extract<BackupLine, { event: 'done' }>): string {
  const width = Math.max(0, ...report.indexes.map((index) => index.name.length));
  const lines = report.indexes.map((index) => {
    const records = index.records === null ? 'records not counted (a snapshot of an earlier version)' : `${number.format(index.records)} records`;
    return `  ${index.name.padEnd(width)}  ${records}${index.replicaOf ? ` (replica of ${index.replicaOf})` : ''}`;
  });
  return (
    `Backup written to ${report.to}: every write up to task ${report.taskID}, none after (${size(report.bytes)}).\n` +
    (lines.length > 0 ? `${lines.join('\n')}\n` : '  (no index)\n') +
    `Serve it with: VITRINE_DATA_DIR=${report.to} vitrine start\n`
  );
}

/** The origin to send the request to, or a usage error (as the other commands' `--url`). */
function backupUrl(url: string): URL {
  if (url === HOSTED_ALGOLIA) throw new UsageError('vitrine backup copies a Vitrine server\'s data folder: --url must name a Vitrine server, not hosted Algolia');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--url must be a URL such as http://localhost:3000, got "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UsageError(`--url must be an http(s) URL, got "${url}"`);
  return new URL('/1/vitrine/backup', parsed);
}

/** Why the server refused before starting, as something to do. */
async function refusal(response: Response, url: string, apiKeyHint: string): Promise<CliError> {
  const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
  const message = typeof body?.message === 'string' ? body.message : response.statusText;
  if (response.status === 403) return new CliError(`The server refused the key (HTTP 403: ${message}): a backup needs the admin key (${apiKeyHint})`);
  if (response.status === 404) return new CliError(`${url} has no backup route (HTTP 404): it is not a Vitrine server, or one older than this command`);
  return new CliError(`Backup refused (HTTP ${response.status}): ${message}`);
}

/** The JSON lines of a streamed answer, as they arrive. */
async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<BackupLine> {
  const decoder = new TextDecoder();
  let pending = '';
  const reader = body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    pending += decoder.decode(chunk.value, { stream: true });
    let end: number;
    while ((end = pending.indexOf('\n')) >= 0) {
      const text = pending.slice(0, end);
      pending = pending.slice(end + 1);
      if (text.trim() !== '') yield JSON.parse(text) as BackupLine;
    }
  }
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  return typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : messageOf(error);
}

async function backUp(to: string, url: string, appId: string, apiKey: string, ctx: CliContext): Promise<void> {
  const endpoint = backupUrl(url);
  const unchanged = `${to} is unchanged (an earlier backup there is intact)`;
  const controller = new AbortController();
  const stop = () => controller.abort();
  ctx.signal.addEventListener('abort', stop, { once: true });
  try {
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        // No compression: the lines must arrive as they are written.
        headers: { 'x-algolia-application-id': appId, 'x-algolia-api-key': apiKey, 'content-type': 'application/json', 'accept-encoding': 'identity' },
        body: JSON.stringify({ to }),
        signal: controller.signal,
      });
    } catch (error) {
      if (controller.signal.aborted) throw new CliError(`Backup interrupted before it started: ${unchanged}`);
      throw new CliError(`No answer from ${url} (${causeOf(error)}): is the server running? Start it, or pass --url`);
    }
    if (!response.ok || response.body === null) throw await refusal(response, url, '--api-key, VITRINE_ADMIN_API_KEY or the key kept in the data folder');
    try {
      for await (const line of lines(response.body)) {
        if (line.event === 'started') {
          ctx.stderr.write(`Backing up ${url} to ${line.to}${line.replacing ? ' (replacing the backup there once the copy is complete)' : ''}…\n`);
          for (const note of line.notes) ctx.stderr.write(`  (${note})\n`);
        } else if (line.event === 'snapshot') {
          ctx.stderr.write(`Snapshot at task ${line.taskID}; copying…\n`);
        } else if (line.event === 'progress') {
          ctx.stderr.write(`  ${size(line.bytes)} copied\n`);
        } else if (line.event === 'done') {
          ctx.stdout.write(formatBackupReport(line));
          return;
        } else {
          throw new CliError(`Backup failed (${line.status}): ${line.message}${line.id ? ` (error id ${line.id} in the server's log)` : ''}. ${unchanged}`);
        }
      }
    } catch (error) {
      if (error instanceof CliError) throw error;
      if (controller.signal.aborted) throw new CliError(`Backup interrupted: the server stops it; ${unchanged}`);
      throw new CliError(`The connection to the server was lost during the backup (${causeOf(error)}): ${unchanged}; what the server had copied is removed by the next backup`);
    }
    throw new CliError(`The server ended its answer before the backup was done: ${unchanged}; what it had copied is removed by the next backup`);
  } finally {
    ctx.signal.removeEventListener('abort', stop);
  }
}

export const backupCommand: Command = {
  name: 'backup',
  summary: 'Copy a running server\'s data folder, consistent at one task, while it keeps serving',
  help: `Usage: vitrine backup --to DIR [options]

Asks the server for a consistent copy of its data folder (indexes with their settings, synonyms and rules,
dictionaries, API keys, analytics), written while it keeps answering searches and taking writes. The copy holds
every write up to one task, printed with each index's record count, and none after it. It is a data folder:
  VITRINE_DATA_DIR=DIR vitrine start
serves it as it is (restore: point VITRINE_DATA_DIR at it, or copy it back in place of the data folder while
the server is stopped).

DIR is a folder on the server's machine (relative paths are resolved here): missing, empty, or an earlier
backup, which the new copy replaces only once it is complete. An interrupted backup leaves DIR as it was.

Options:
  --to DIR         Folder to write the copy to (required)

${CONNECTION_HELP}`,
  options: { to: { type: 'string' }, ...connectionOptions },
  positionals: { min: 0, max: 0 },
  async run(values, _positionals, ctx) {
    const to = stringOption(values, 'to');
    if (!to) throw new UsageError('vitrine backup: --to is required (the folder to write the copy to)');
    const { url, appId, apiKey } = connectionSettings(values, ctx);
    await backUp(resolve(ctx.cwd, to), url, appId, apiKey, ctx);
  },
};
