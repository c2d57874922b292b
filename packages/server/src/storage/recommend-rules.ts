/**
 * Recommend rules as the server holds them: by index name, then model, then objectID. They belong to the name,
 * not to the index's content (Algolia keeps them with its Recommend models, apart from the index): deleting,
 * clearing, copying or moving an index leaves them where they are, and an index re-created under the name finds
 * them again. Written through the operation log like every write (`recommendRules` operations), held in every
 * snapshot's manifest.
 */
import type { RecommendRule, RecommendRuleModel } from '@vitrine/protocol';
import type { Op } from './ops.ts';

/** The models rules exist for, as Algolia's spec lists them (`looking-similar` takes none). */
export const RECOMMEND_RULE_MODELS: readonly RecommendRuleModel[] = ['related-products', 'bought-together', 'trending-facets', 'trending-items'];

/** Algolia's limit of rules per recommendation scenario (an index and a model). */
export const MAX_RECOMMEND_RULES = 10_000;

export type RecommendRulesOp = Extract<Op, { kind: 'recommendRules' }>;

/** One index and model's rules, as a snapshot's manifest lists them. */
export interface ManifestRecommendRules {
  indexName: string;
  model: RecommendRuleModel;
  rules: RecommendRule[];
}

export function isRecommendRuleModel(value: string): value is RecommendRuleModel {
  return (RECOMMEND_RULE_MODELS as readonly string[]).includes(value);
}

export class RecommendRuleSets {
  private readonly byIndex = new Map<string, Map<RecommendRuleModel, Map<string, RecommendRule>>>();

  get(indexName: string, model: RecommendRuleModel, objectID: string): RecommendRule | undefined {
    return this.byIndex.get(indexName)?.get(model)?.get(objectID);
  }

  /** The rules of one index and model, in the order they were first saved. */
  list(indexName: string, model: RecommendRuleModel): RecommendRule[] {
    return [...(this.byIndex.get(indexName)?.get(model)?.values() ?? [])];
  }

  has(indexName: string, model: RecommendRuleModel, objectID: string): boolean {
    return this.get(indexName, model, objectID) !== undefined;
  }

  count(indexName: string, model: RecommendRuleModel): number {
    return this.byIndex.get(indexName)?.get(model)?.size ?? 0;
  }

  /**
   * Applies a logged operation. Deterministic (replay gives the same state): a saved rule's `_metadata.lastUpdate`
   * is the operation's acceptance time.
   */
  apply(op: RecommendRulesOp): void {
    const rules = this.rulesOf(op.indexName, op.model);
    if (op.action === 'save') {
      if (op.clearExisting) rules.clear();
      for (const rule of op.rules ?? []) {
        // A rule saved again takes the place of the old one (Algolia's upsert), at the end of the order.
        rules.delete(rule.objectID);
        rules.set(rule.objectID, { ...rule, _metadata: { lastUpdate: op.at } });
      }
    } else if (op.objectID !== undefined) {
      rules.delete(op.objectID);
    }
    this.dropIfEmpty(op.indexName, op.model);
  }

  toManifest(): ManifestRecommendRules[] {
    const out: ManifestRecommendRules[] = [];
    for (const [indexName, models] of this.byIndex) for (const [model, rules] of models) out.push({ indexName, model, rules: [...rules.values()] });
    return out;
  }

  /** Replaces everything with a manifest's lists (absent in snapshots written before Recommend rules existed). */
  load(lists: readonly ManifestRecommendRules[] | undefined): void {
    this.byIndex.clear();
    for (const { indexName, model, rules } of lists ?? []) {
      const target = this.rulesOf(indexName, model);
      for (const rule of rules) target.set(rule.objectID, rule);
      this.dropIfEmpty(indexName, model);
    }
  }

  private rulesOf(indexName: string, model: RecommendRuleModel): Map<string, RecommendRule> {
    let models = this.byIndex.get(indexName);
    if (!models) this.byIndex.set(indexName, (models = new Map()));
    let rules = models.get(model);
    if (!rules) models.set(model, (rules = new Map()));
    return rules;
  }

  private dropIfEmpty(indexName: string, model: RecommendRuleModel): void {
    const models = this.byIndex.get(indexName);
    if (models?.get(model)?.size !== 0) return;
    models.delete(model);
    if (models.size === 0) this.byIndex.delete(indexName);
  }
}
