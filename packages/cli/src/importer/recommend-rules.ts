/**
 * An index's Recommend rules, read and written through the official recommend client (`initRecommend` of the
 * same client, same hosts and key), model by model. They belong to the index's name, not to its records: export,
 * import and sync write them to the index's own name (never to a temporary index moved over it later).
 */
import type { RecommendClient, RecommendModels, RecommendRule } from 'algoliasearch';
import { apiStatus, CliError } from '../errors.ts';
import type { ApiClient } from './client.ts';
import { storedForm } from './index-content.ts';

/** The models rules exist for (Algolia's spec: `looking-similar` takes none). */
export const RULE_MODELS: readonly RecommendModels[] = ['related-products', 'bought-together', 'trending-facets', 'trending-items'];

/** Rules by model, as `vitrine export` writes them (`<index>.recommend-rules.json`) and `--recommend-rules` reads them. */
export type RecommendRulesFile = Partial<Record<RecommendModels, RecommendRule[]>>;

const PAGE = 1000;
/** Polling a task: quickly at first (a local server publishes in milliseconds), then every second. */
const pause = (attempt: number) => new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 1000)));

/** The recommend client of `client`'s application, on its hosts, with its key and timeouts. */
export function recommendClientOf(client: ApiClient): RecommendClient {
  const { hosts, timeouts } = client.transporter;
  return client.initRecommend({ options: { hosts, timeouts } });
}

/**
 * Every Recommend rule of an index, by model. A server without the Recommend rules API (404 on the route, as
 * Vitrine before it had them) or without Recommend (402) has none, which is what empty lists say.
 */
export async function listRecommendRules(client: ApiClient, indexName: string): Promise<RecommendRulesFile> {
  const recommend = recommendClientOf(client);
  const out: RecommendRulesFile = {};
  for (const model of RULE_MODELS) {
    const rules: RecommendRule[] = [];
    try {
      for (let page = 0; ; page++) {
        const response = await recommend.searchRecommendRules({ indexName, model, searchRecommendRulesParams: { page, hitsPerPage: PAGE } });
        for (const hit of response.hits) rules.push(storedForm<RecommendRule>(hit));
        if (response.hits.length < PAGE || rules.length >= response.nbHits) break;
      }
    } catch (error) {
      if (apiStatus(error) !== 404 && apiStatus(error) !== 402) throw error;
    }
    out[model] = rules;
  }
  return out;
}

/** The number of rules in a file's lists. */
export function countRecommendRules(file: RecommendRulesFile): number {
  return Object.values(file).reduce((sum, rules) => sum + (rules?.length ?? 0), 0);
}

/** A `--recommend-rules` file's content, checked: an object whose keys are models and values arrays of rules. */
export function checkRecommendRulesFile(value: unknown, path: string): RecommendRulesFile {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError(`The Recommend rules file ${path} does not hold a JSON object of rules by model (as vitrine export writes it)`);
  }
  for (const [model, rules] of Object.entries(value)) {
    if (!(RULE_MODELS as readonly string[]).includes(model)) throw new CliError(`The Recommend rules file ${path} names "${model}": expected ${RULE_MODELS.join(', ')}`);
    if (!Array.isArray(rules)) throw new CliError(`The Recommend rules file ${path}: "${model}" is not an array of rules`);
  }
  return value as RecommendRulesFile;
}

/**
 * Writes the rules of each model the file lists, each replacing that model's rules (`clearExistingRules`), and
 * waits until they are published. `onlyNonEmpty`: leave a model whose list is empty as it is (a sync from a
 * source that has none writes none, so the destination need not have the API).
 */
export async function saveRecommendRules(client: ApiClient, indexName: string, file: RecommendRulesFile, { onlyNonEmpty = false } = {}): Promise<void> {
  const recommend = recommendClientOf(client);
  for (const model of RULE_MODELS) {
    const rules = file[model];
    if (rules === undefined || (onlyNonEmpty && rules.length === 0)) continue;
    const { taskID } = await recommend.batchRecommendRules({ indexName, model, recommendRule: rules }, { queryParameters: { clearExistingRules: true } });
    for (let attempt = 0; (await recommend.getRecommendStatus({ indexName, model, taskID })).status !== 'published'; attempt++) await pause(attempt);
  }
}
