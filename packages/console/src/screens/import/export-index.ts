/**
 * An index as one downloadable JSON document: settings, synonyms, rules and records. Records are browsed page
 * by page and appended as Blob parts, so the page holds serialised text (which the browser may keep on disk),
 * not every record as objects. A server without the Rules API exports no rules and says so.
 */
import type { AdminClient } from '../../api/client.ts';
import { statusOf } from '../../api/access.ts';

export interface ExportResult {
  blob: Blob;
  records: number;
  rulesAvailable: boolean;
}

export async function exportIndex(client: AdminClient, indexName: string, onRecords: (count: number) => void): Promise<ExportResult> {
  const settings = await client.getSettings({ indexName });
  const synonyms: unknown[] = [];
  await client.browseSynonyms({ indexName, aggregator: (response) => void synonyms.push(...response.hits) });
  const rules: unknown[] = [];
  let rulesAvailable = true;
  try {
    await client.browseRules({ indexName, aggregator: (response) => void rules.push(...response.hits) });
  } catch (error) {
    if (statusOf(error) !== 404) throw error;
    rulesAvailable = false;
  }
  const parts: BlobPart[] = [`{"indexName":${JSON.stringify(indexName)},"settings":${JSON.stringify(settings)},"synonyms":${JSON.stringify(synonyms)}`];
  if (rulesAvailable) parts.push(`,"rules":${JSON.stringify(rules)}`);
  parts.push(',"records":[');
  let records = 0;
  await client.browseObjects<Record<string, unknown>>({
    indexName,
    browseParams: { hitsPerPage: 1000 },
    aggregator: (response) => {
      if (response.hits.length === 0) return;
      parts.push((records > 0 ? ',' : '') + response.hits.map((hit) => JSON.stringify(hit)).join(','));
      records += response.hits.length;
      onRecords(records);
    },
  });
  parts.push(']}\n');
  return { blob: new Blob(parts, { type: 'application/json' }), records, rulesAvailable };
}

/** Hands a Blob to the browser as a file download. */
export function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started from the URL; revoking it later frees the Blob.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
