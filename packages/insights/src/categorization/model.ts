/**
 * Query categorization on the main thread: after each model build, the engaged records' categories are read
 * (`InsightsDeps.getObjects`, a chunk of records per turn of the event loop, so requests go on meanwhile) and
 * each query's prediction is computed once (`categorize.ts`); a search asking for it looks it up by index and
 * normalised query. The predictions of the previous build answer until the new ones are complete.
 */
import type { QueryCategorization } from '@vitrine/protocol';
import { normalizeQuery } from '../days.ts';
import { attributeValue } from '../deps.ts';
import type { InsightsDeps } from '../deps.ts';
import { categorize } from './categorize.ts';
import type { EngagedRecord } from './categorize.ts';
import type { EngagementTables } from './engagement.ts';

const RECORDS_PER_READ = 500;

function text(record: Record<string, unknown>, path: string): string | undefined {
  const value = attributeValue(record, path);
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first !== '' ? first : undefined;
}

export class QueryCategories {
  private predictions = new Map<string, Map<string, QueryCategorization>>();
  private generation = 0;

  /** Recomputes the predictions from a build's engagement; a newer call supersedes one under way. */
  async refresh(engagement: EngagementTables, getObjects: InsightsDeps['getObjects'], levels: readonly string[]): Promise<void> {
    const generation = ++this.generation;
    const next = new Map<string, Map<string, QueryCategorization>>();
    for (const [index, queries] of engagement) {
      const ids = [...new Set([...queries.values()].flatMap((entry) => entry.items.map(([id]) => id)))];
      const paths = new Map<string, Array<string | undefined>>();
      for (let i = 0; i < ids.length; i += RECORDS_PER_READ) {
        const chunk = ids.slice(i, i + RECORDS_PER_READ);
        const records = await getObjects(index, chunk, null);
        if (generation !== this.generation) return;
        records.forEach((record, k) => {
          if (record !== null) paths.set(chunk[k], levels.map((level) => text(record, level)));
        });
        await new Promise((resolve) => setImmediate(resolve));
      }
      const table = new Map<string, QueryCategorization>();
      for (const [query, entry] of queries) {
        const records: EngagedRecord[] = entry.items.flatMap(([id, weight]) => (paths.has(id) ? [{ weight, path: paths.get(id)! }] : []));
        table.set(query, categorize(query, entry.count, records, levels));
      }
      next.set(index, table);
    }
    this.predictions = next;
  }

  /** The prediction for a search's query: `{}` when there is none (Algolia's answer for a query it cannot categorise). */
  lookup(indexName: string, query: unknown): QueryCategorization {
    const normalized = typeof query === 'string' ? normalizeQuery(query) : '';
    return this.predictions.get(indexName)?.get(normalized) ?? {};
  }
}
