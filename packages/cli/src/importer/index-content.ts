import type { Rule, SynonymHit } from 'algoliasearch';
import { apiStatus } from '../errors.ts';
import type { ApiClient } from './client.ts';

/** Attributes the API adds to hits, which are not part of the record (or of the synonym, or of the rule). */
const RESPONSE_ONLY = new Set(['_highlightResult', '_snippetResult', '_rankingInfo', '_distinctSeqID']);
const PAGE = 1000;

export type StoredRecord = Record<string, unknown> & { objectID: string };

export interface BrowsedPage {
  records: StoredRecord[];
  /** Where the next page starts; absent after the last page. */
  cursor: string | undefined;
  /** Records in the index when the browse started (the progress bar's total). */
  nbHits: number;
}

/** A hit as it is stored: without the attributes the API adds to answers. */
export function storedForm<T>(hit: object): T {
  const stored: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(hit)) if (!RESPONSE_ONLY.has(key)) stored[key] = value;
  return stored as T;
}

/** One page of an index's records, all attributes, from a cursor (or the start). */
export async function browsePage(client: ApiClient, indexName: string, cursor: string | undefined, hitsPerPage = PAGE): Promise<BrowsedPage> {
  const page = await client.browse<Record<string, unknown>>({
    indexName,
    // No highlighting: only the records are wanted, and marking up every attribute of every hit is most of the work.
    browseParams: { hitsPerPage, attributesToRetrieve: ['*'], attributesToHighlight: [], attributesToSnippet: [], ...(cursor ? { cursor } : {}) },
  });
  return { records: page.hits.map((hit) => storedForm<StoredRecord>(hit)), cursor: page.cursor, nbHits: page.nbHits ?? 0 };
}

/** Every synonym of an index (synonym sets are small next to records: they are read whole). */
export async function listSynonyms(client: ApiClient, indexName: string): Promise<SynonymHit[]> {
  const synonyms: SynonymHit[] = [];
  for (let page = 0; ; page++) {
    const response = await client.searchSynonyms({ indexName, searchSynonymsParams: { page, hitsPerPage: PAGE } });
    for (const hit of response.hits) synonyms.push(storedForm<SynonymHit>(hit));
    if (response.hits.length < PAGE || synonyms.length >= response.nbHits) return synonyms;
  }
}

/**
 * Every rule of an index, through Algolia's rules API. A server without that API (404 on the route) has no
 * rules, which is what an empty list says.
 */
export async function listRules(client: ApiClient, indexName: string): Promise<Rule[]> {
  const rules: Rule[] = [];
  try {
    for (let page = 0; ; page++) {
      const response = await client.searchRules({ indexName, searchRulesParams: { page, hitsPerPage: PAGE } });
      for (const hit of response.hits) rules.push(storedForm<Rule>(hit));
      if (response.hits.length < PAGE || rules.length >= response.nbHits) return rules;
    }
  } catch (error) {
    if (apiStatus(error) === 404 && (await rulesApiMissing(client, indexName))) return [];
    throw error;
  }
}

/**
 * A 404 from the rules search means either "no such index" or "no rules API". The index's settings tell which:
 * if they answer, the index exists and the 404 was the route.
 */
async function rulesApiMissing(client: ApiClient, indexName: string): Promise<boolean> {
  await client.getSettings({ indexName });
  return true;
}
