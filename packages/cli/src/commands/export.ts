import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import type { CliContext } from '../context.ts';
import { apiStatus, CliError, messageOf } from '../errors.ts';
import type { ApiClient } from '../importer/client.ts';
import { browsePage, listRules, listSynonyms } from '../importer/index-content.ts';
import { countRecommendRules, listRecommendRules } from '../importer/recommend-rules.ts';
import { createProgress } from '../io/progress.ts';
import type { Command } from './command.ts';
import { stringOption } from './command.ts';
import { CONNECTION_HELP, connect, connectionOptions } from './connection.ts';

export interface ExportPaths {
  records: string;
  settings: string;
  synonyms: string;
  rules: string;
  recommendRules: string;
}

/**
 * `--out products.ndjson` → that file plus `products.settings.json`, `products.synonyms.json`,
 * `products.rules.json` and `products.recommend-rules.json` beside it; any other `--out` is a folder that
 * receives `<index>.ndjson` and the four JSON files.
 */
export function exportPaths(out: string, indexName: string): ExportPaths {
  const file = /\.(ndjson|jsonl)$/i.exec(out);
  const stem = file ? out.slice(0, file.index) : join(out, indexName);
  return {
    records: file ? out : `${stem}.ndjson`,
    settings: `${stem}.settings.json`,
    synonyms: `${stem}.synonyms.json`,
    rules: `${stem}.rules.json`,
    recommendRules: `${stem}.recommend-rules.json`,
  };
}

async function exportRecords(client: ApiClient, indexName: string, path: string, ctx: CliContext): Promise<number> {
  const out = createWriteStream(path);
  const failed = once(out, 'error').then(([error]) => {
    throw new CliError(`Cannot write ${path}: ${messageOf(error)}`);
  });
  let written = 0;
  const work = (async () => {
    let cursor: string | undefined;
    let progress: ReturnType<typeof createProgress> | undefined;
    do {
      const page = await browsePage(client, indexName, cursor);
      progress ??= createProgress({ stream: ctx.stderr, label: 'Exporting', total: page.nbHits, unit: 'records' });
      const chunk = page.records.map((record) => JSON.stringify(record) + '\n').join('');
      written += page.records.length;
      if (!out.write(chunk)) await once(out, 'drain');
      progress.update(written, `${written} records`);
      cursor = page.cursor;
    } while (cursor && !ctx.signal.aborted);
    progress?.stop(written, `${written} records`);
    out.end();
    await once(out, 'finish');
  })();
  await Promise.race([work, failed]);
  if (ctx.signal.aborted) throw new CliError('Export interrupted');
  return written;
}

export const exportCommand: Command = {
  name: 'export',
  summary: 'Export an index: records (NDJSON), settings, synonyms, rules and Recommend rules (JSON)',
  help: `Usage: vitrine export --index <name> --out <folder|file.ndjson> [options]

Writes an index's records (one JSON object per line), settings, synonyms, rules and Recommend rules (by
model), in the forms vitrine import reads:
  vitrine import products.ndjson --index products --settings products.settings.json \\
    --synonyms products.synonyms.json --rules products.rules.json \\
    --recommend-rules products.recommend-rules.json

Options:
  --index NAME     Index to export (required)
  --out PATH       A .ndjson file (settings, synonyms, rules and Recommend rules are written beside it as
                   <name>.settings.json, <name>.synonyms.json, <name>.rules.json and
                   <name>.recommend-rules.json), or a folder that receives <index>.ndjson and the four JSON files

${CONNECTION_HELP}`,
  options: { index: { type: 'string' }, out: { type: 'string' }, ...connectionOptions },
  positionals: { min: 0, max: 0 },
  async run(values, _positionals, ctx) {
    const indexName = stringOption(values, 'index');
    const out = stringOption(values, 'out');
    if (!indexName) throw new CliError('vitrine export: --index is required');
    if (!out) throw new CliError('vitrine export: --out is required');
    const paths = exportPaths(resolve(ctx.cwd, out), indexName);
    const client = connect(values, ctx);
    try {
      // Settings first: a missing index fails here, before any file is written.
      const settings = await client.getSettings({ indexName });
      mkdirSync(dirname(paths.records), { recursive: true });
      const count = await exportRecords(client, indexName, paths.records, ctx);
      writeFileSync(paths.settings, JSON.stringify(settings, null, 2) + '\n');
      const synonyms = await listSynonyms(client, indexName);
      writeFileSync(paths.synonyms, JSON.stringify(synonyms, null, 2) + '\n');
      const rules = await listRules(client, indexName);
      writeFileSync(paths.rules, JSON.stringify(rules, null, 2) + '\n');
      const recommendRules = await listRecommendRules(client, indexName);
      writeFileSync(paths.recommendRules, JSON.stringify(recommendRules, null, 2) + '\n');
      ctx.stdout.write(
        `Exported "${indexName}": ${count} records to ${paths.records}, settings to ${paths.settings}, ` +
          `${synonyms.length} synonyms to ${paths.synonyms}, ${rules.length} rules to ${paths.rules}, ` +
          `${countRecommendRules(recommendRules)} Recommend rules to ${paths.recommendRules}.\n`,
      );
    } catch (error) {
      if (error instanceof CliError) throw error;
      const status = apiStatus(error);
      throw new CliError(`Export of "${indexName}" failed${status ? ` (HTTP ${status})` : ''}: ${messageOf(error)}`, { cause: error });
    }
  },
};
