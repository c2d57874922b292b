/**
 * Query vectors of `rest` embedders: a hybrid search's query text is embedded here, on the main thread, before
 * the search goes to a thread with the vector (the engine never leaves its thread). Vectors are kept by
 * embedder and text (least recently used out, within `MAX_CACHED`): shoppers repeat each other's queries, and a
 * storefront's multi-query sends the same text several times; the same text asked while a call is under way
 * waits for that call. An embedder that does not answer in time, or answers something unusable, makes the
 * search answer 503 with the reason at once (`EMBEDDER_UNAVAILABLE`), never a stalled search.
 */
import type { EmbedderSettings, IndexSettings, RestEmbedder, SearchParams } from '@vitrine/protocol';
import type { ServerLimits } from '../config.ts';
import { createError } from '../errors.ts';
import type { IndexRegistry } from '../storage/registry.ts';
import { EmbedderError, embedTexts, vectorProblem } from './rest-client.ts';

/** Query vectors kept: at 384 dimensions, ~1.5 KB each (float32). */
const MAX_CACHED = 10_000;

/** What identifies an embedder's answers: everything that changes what it is asked or how. */
export function embedderKey(embedder: RestEmbedder): string {
  const { url, request, response, headers, apiKey, dimensions } = embedder;
  return JSON.stringify([url, request, response, headers ?? null, apiKey ?? null, dimensions]);
}

/** The settings of the index holding the records a search of `indexName` reads (a replica's primary). */
function recordsSettings(registry: IndexRegistry, indexName: string): IndexSettings | undefined {
  const entry = registry.peek(indexName);
  if (entry === undefined) return undefined;
  return typeof entry.settings.primary === 'string' ? registry.peek(entry.settings.primary)?.settings : entry.settings;
}

/**
 * The rest embedder a search asks to embed its query with, or null: `hybrid` with a share for vectors, no
 * `vector`, some text, and the embedder it names (or the index's only one) a rest one. The engine checks the
 * rest (a name it does not know, a ratio out of range) and answers 400.
 */
export function queryEmbedder(registry: IndexRegistry, indexName: string, params: SearchParams): { name: string; embedder: RestEmbedder } | null {
  const { hybrid, vector, query } = params;
  if (hybrid === undefined || hybrid === null || typeof hybrid !== 'object' || (vector !== undefined && vector !== null)) return null;
  if (typeof query !== 'string' || query.trim() === '' || hybrid.semanticRatio === 0) return null;
  const embedders = recordsSettings(registry, indexName)?.embedders as Record<string, EmbedderSettings> | undefined;
  if (embedders === undefined || embedders === null || typeof embedders !== 'object') return null;
  const names = Object.keys(embedders);
  const name = typeof hybrid.embedder === 'string' ? hybrid.embedder : names.length === 1 ? names[0] : undefined;
  const embedder = name === undefined ? undefined : embedders[name];
  return embedder?.source === 'rest' ? { name: name!, embedder } : null;
}

export class QueryVectors {
  private readonly cache = new Map<string, number[]>();
  private readonly calls = new Map<string, Promise<number[]>>();
  /** Calls made to embedders (tests: the cache answers repeated queries). */
  callsMade = 0;

  constructor(private readonly limits: Pick<ServerLimits, 'embedderQueryTimeoutMs' | 'embedderQueryAttempts'>) {}

  /** The query's vector; throws `EMBEDDER_UNAVAILABLE` (503) when the embedder cannot give it. */
  async vectorFor(name: string, embedder: RestEmbedder, text: string): Promise<number[]> {
    const key = `${embedderKey(embedder)}\u0000${text}`;
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      this.cache.delete(key);
      this.cache.set(key, cached);
      return cached;
    }
    let pending = this.calls.get(key);
    if (pending === undefined) {
      pending = this.embed(name, embedder, text).finally(() => this.calls.delete(key));
      this.calls.set(key, pending);
    }
    const vector = await pending;
    this.cache.set(key, vector);
    if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
    return vector;
  }

  private async embed(name: string, embedder: RestEmbedder, text: string): Promise<number[]> {
    this.callsMade++;
    let vector: unknown;
    try {
      [vector] = await embedTexts(embedder, [text], { timeoutMs: this.limits.embedderQueryTimeoutMs, attempts: this.limits.embedderQueryAttempts });
    } catch (error) {
      if (error instanceof EmbedderError) throw createError('EMBEDDER_UNAVAILABLE', name, error.message);
      throw error;
    }
    const problem = vectorProblem(vector, embedder.dimensions);
    if (problem !== null) throw createError('EMBEDDER_UNAVAILABLE', name, `it answered ${problem}`);
    return vector as number[];
  }

  /** Each default query of a call that needs its text embedded gets its vector (`queryVector`), all at once. */
  async embedQueries(registry: IndexRegistry, queries: ReadonlyArray<{ indexName: string; type: string; params: SearchParams; queryVector?: number[] }>): Promise<void> {
    await Promise.all(
      queries.map(async (query) => {
        if (query.type !== 'default') return;
        const wanted = queryEmbedder(registry, query.indexName, query.params);
        if (wanted !== null) query.queryVector = await this.vectorFor(wanted.name, wanted.embedder, query.params.query as string);
      }),
    );
  }
}
