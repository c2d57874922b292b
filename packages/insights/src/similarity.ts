/**
 * Content similarity, computed with searches of the index itself (so it follows the index's settings and sees
 * records as soon as search does):
 * - related-products: the product's name as a query whose words are all optional, first within its own
 *   (deepest) category, then across the index with the category and brand as optional filters. Hits of the
 *   same category rank first; similarity falls with the rank.
 * - looking-similar: items of the same parent category, scored on attributes — category (same leaf 1, same
 *   parent 0.5), colour, price band (1 at the same price, 0 at twice or half) and brand.
 */
import type { IndexRecord, SearchParams } from '@vitrine/protocol';
import type { InsightsDeps, RecommendAttributes } from './deps.ts';
import { attributeValue } from './deps.ts';
import type { ScoredItem } from './models.ts';

const CONTENT_HITS = 40;
const SIMILAR_POOL = 200;

function text(record: IndexRecord, path: string): string | undefined {
  const value = attributeValue(record, path);
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function asList(value: unknown): Array<string | string[]> {
  if (value === undefined || value === null) return [];
  return typeof value === 'string' ? [value] : Array.isArray(value) ? (value as Array<string | string[]>) : [];
}

function entry(attribute: string, value: string): string {
  return `${attribute}:${value.startsWith('-') ? `\\${value}` : value}`;
}

/** The request's filters, which candidate searches keep so that filtered-out items do not crowd the pool. */
function filtersOf(params: SearchParams): SearchParams {
  const out: SearchParams = {};
  if (params.filters !== undefined) out.filters = params.filters;
  if (params.numericFilters !== undefined) out.numericFilters = params.numericFilters;
  if (params.tagFilters !== undefined) out.tagFilters = params.tagFilters;
  return out;
}

/** Deepest and parent category values present on the record, with their attributes. */
function categoriesOf(record: IndexRecord, attributes: RecommendAttributes): Array<{ attribute: string; value: string }> {
  return attributes.categories.map((attribute) => ({ attribute, value: text(record, attribute) })).filter((c): c is { attribute: string; value: string } => c.value !== undefined);
}

function retrieve(attributes: RecommendAttributes): string[] {
  const paths = [attributes.brand, attributes.color, attributes.price, ...attributes.categories];
  return ['objectID', ...new Set(paths.map((path) => path.split('.')[0]))];
}

const quiet = { attributesToHighlight: [], attributesToSnippet: [], analytics: false, clickAnalytics: false, page: 0 };

export async function contentCandidates(
  deps: InsightsDeps, attributes: RecommendAttributes, indexName: string, record: IndexRecord, requestParams: SearchParams,
): Promise<Map<string, number>> {
  const categories = categoriesOf(record, attributes);
  const leaf = categories[categories.length - 1];
  const brand = text(record, attributes.brand);
  const query = text(record, attributes.name) ?? [brand, leaf?.value.split('>').pop()?.trim()].filter(Boolean).join(' ');
  const out = new Map<string, number>();
  if (query === '') return out;
  const base: SearchParams = { ...filtersOf(requestParams), ...quiet, query, optionalWords: [query], attributesToRetrieve: ['objectID'], hitsPerPage: CONTENT_HITS };
  const userFacets = asList(requestParams.facetFilters);
  const add = (hits: IndexRecord[], top: number) => {
    hits.filter((hit) => hit.objectID !== record.objectID).forEach((hit, rank) => {
      if (!out.has(hit.objectID)) out.set(hit.objectID, top * (1 - rank / CONTENT_HITS));
    });
  };
  if (leaf) {
    const sameCategory = await deps.search(indexName, { ...base, facetFilters: [...userFacets, entry(leaf.attribute, leaf.value)], optionalFilters: brand ? [entry(attributes.brand, brand)] : [] });
    add(sameCategory.hits, 1);
  }
  if (out.size < CONTENT_HITS / 2) {
    const optional = [leaf ? entry(leaf.attribute, leaf.value) : undefined, brand ? entry(attributes.brand, brand) : undefined].filter((f): f is string => f !== undefined);
    const wide = await deps.search(indexName, { ...base, facetFilters: userFacets, optionalFilters: optional });
    add(wide.hits, 0.5);
  }
  return out;
}

/** 0 to 1: how alike two records are on category, colour, price and brand. */
export function attributeSimilarity(a: IndexRecord, b: IndexRecord, attributes: RecommendAttributes): number {
  const levels = attributes.categories;
  let category = 0;
  for (let i = levels.length - 1; i >= 0; i--) {
    const va = text(a, levels[i]);
    if (va !== undefined && va === text(b, levels[i])) {
      category = i === levels.length - 1 ? 1 : i === levels.length - 2 ? 0.5 : 0.2;
      break;
    }
  }
  const colorA = text(a, attributes.color);
  const color = colorA !== undefined && colorA === text(b, attributes.color) ? 1 : 0;
  const pa = Number(attributeValue(a, attributes.price));
  const pb = Number(attributeValue(b, attributes.price));
  const price = pa > 0 && pb > 0 ? Math.max(0, 1 - Math.abs(Math.log(pa / pb)) / Math.LN2) : 0;
  const brandA = text(a, attributes.brand);
  const brand = brandA !== undefined && brandA === text(b, attributes.brand) ? 1 : 0;
  return 0.35 * category + 0.3 * color + 0.2 * price + 0.15 * brand;
}

export async function similarCandidates(
  deps: InsightsDeps, attributes: RecommendAttributes, indexName: string, record: IndexRecord, requestParams: SearchParams,
): Promise<ScoredItem[]> {
  const categories = categoriesOf(record, attributes);
  const leaf = categories[categories.length - 1];
  const parent = categories.length >= 2 ? categories[categories.length - 2] : categories[0];
  const color = text(record, attributes.color);
  const brand = text(record, attributes.brand);
  const optional = [
    leaf ? entry(leaf.attribute, leaf.value) : undefined,
    color ? entry(attributes.color, color) : undefined,
    brand ? entry(attributes.brand, brand) : undefined,
  ].filter((f): f is string => f !== undefined);
  const userFacets = asList(requestParams.facetFilters);
  const base: SearchParams = { ...filtersOf(requestParams), ...quiet, query: '', attributesToRetrieve: retrieve(attributes), hitsPerPage: SIMILAR_POOL, optionalFilters: optional };
  const pool = new Map<string, IndexRecord>();
  const collect = (hits: IndexRecord[]) => {
    for (const hit of hits) if (hit.objectID !== record.objectID && !pool.has(hit.objectID)) pool.set(hit.objectID, hit);
  };
  if (parent) collect((await deps.search(indexName, { ...base, facetFilters: [...userFacets, entry(parent.attribute, parent.value)] })).hits);
  if (pool.size < 30) collect((await deps.search(indexName, { ...base, facetFilters: userFacets })).hits);
  return [...pool.values()]
    .map((hit) => ({ objectID: hit.objectID, score: Math.round(attributeSimilarity(record, hit, attributes) * 10_000) / 100 }))
    .filter((item) => item.score > 0)
    .sort((a, b) => b.score - a.score || (a.objectID < b.objectID ? -1 : 1));
}
