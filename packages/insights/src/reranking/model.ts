/**
 * The re-ranking model on the main thread: the tables the last build derived (`build.ts`), looked up per search
 * by index and normalised query (as analytics normalises it), a map lookup: the search route asks before sending
 * a query to its thread, and the engine decides whether the boosts apply (`enableReRanking`).
 */
import type { ReRankingInput } from '@vitrine/engine';
import { normalizeQuery } from '../days.ts';
import { emptyReRanking } from './build.ts';
import type { ReRankingTables } from './build.ts';

export class ReRankingModel {
  private tables: ReRankingTables = emptyReRanking();
  /** The inputs handed to searches, made once per build: every search of a query gets the same object. */
  private inputs = new Map<string, Map<string, ReRankingInput>>();

  replace(tables: ReRankingTables): void {
    this.tables = tables;
    this.inputs = new Map([...tables.indices].map(([index, queries]) => [index, new Map([...queries].map(([query, boosts]) => [query, { query, boosts }]))]));
  }

  /**
   * The boosts of a search's query, if the model has any. The empty query has none: its clicks come from every
   * category page and filter, which re-ranking would mix.
   */
  boostsFor(indexName: string, query: unknown): ReRankingInput | undefined {
    if (typeof query !== 'string') return undefined;
    const normalized = normalizeQuery(query);
    if (normalized === '') return undefined;
    return this.inputs.get(indexName)?.get(normalized);
  }

  /** What the last build found: queries with boosts, boosts, pairs scored, and each index's click curve. */
  stats(): { queries: number; boosted: number; scored: number; curves: Record<string, number[]> } {
    let queries = 0;
    for (const table of this.tables.indices.values()) queries += table.size;
    return { queries, boosted: this.tables.boosted, scored: this.tables.scored, curves: Object.fromEntries(this.tables.curves) };
  }
}
