/**
 * @vitrine/demo: the demo catalogue. A deterministic stream of realistic products, the index settings and
 * replicas the storefront expects, and the product illustrations the server serves.
 */
export { generateProducts, DEFAULT_SEED } from './generate.ts';
export { demoIndexName, demoSettings, demoReplicaSettings, demoReplicas } from './settings.ts';
export { renderProductImage } from './images/render.ts';
export { slugify } from './slug.ts';
export { createRandom, type Random } from './random.ts';
export { demoRules, demoRuleSources, categoryContext, type DemoRuleSources } from './rules.ts';
export { generateHistory, type HistoryOptions } from './history/generate-history.ts';
export { demoPersonalizationStrategy, isDemoFacet } from './learning.ts';
