/**
 * Whether hits show their vectors: `_vectors` is left out of hits (a 384-dimension vector is ~7 KB of JSON per
 * hit) unless `retrieveVectors: true` (Meilisearch's name) or `attributesToRetrieve` names it (`_vectors`, or
 * `_vectors.<embedder>` for one). Never when `unretrievableAttributes` holds it.
 */
import type { SearchParams } from '@vitrine/protocol';
import { createEngineError } from '../errors.ts';
import type { VectorStore } from './vector-store.ts';

/** Embedders whose vectors hits show: 'all', a set of names, or null (none). */
export type VectorsShown = 'all' | ReadonlySet<string> | null;

export function vectorsShown(params: SearchParams, attributesToRetrieve: readonly string[], unretrievable: readonly string[]): VectorsShown {
  const flag = params.retrieveVectors;
  if (flag !== undefined && flag !== null && typeof flag !== 'boolean') throw createEngineError('INVALID_PARAMETER', 'retrieveVectors', 'expected a boolean');
  if (unretrievable.includes('_vectors')) return null;
  if (flag === true || attributesToRetrieve.includes('_vectors')) return 'all';
  const named = attributesToRetrieve.filter((a) => a.startsWith('_vectors.')).map((a) => a.slice('_vectors.'.length));
  return named.length > 0 ? new Set(named) : null;
}

/** A document's vectors as a hit shows them, or undefined when it shows none. */
export function hitVectors(vectors: VectorStore, doc: number, shown: VectorsShown): Record<string, number[]> | undefined {
  if (shown === null || vectors.empty) return undefined;
  const all = vectors.vectorsOf(doc);
  if (all === undefined || shown === 'all') return all;
  const out = Object.fromEntries(Object.entries(all).filter(([name]) => shown.has(name)));
  return Object.keys(out).length > 0 ? out : undefined;
}
