/**
 * Query vectors of the embedders the server computes (`rest`, `huggingFace`): a hybrid search's query text is
 * embedded here, before the search goes to a thread with the vector (the engine never leaves its thread; a
 * local model runs on the model thread). Vectors are kept by embedder and text (least recently used out, within
 * `MAX_CACHED`): shoppers repeat each other's queries, and a storefront's multi-query sends the same text
 * several times; the same text asked while a call is under way waits for that call. An embedder that does not
 * answer in time, or answers something unusable, makes the search answer 503 with the reason at once
 * (`EMBEDDER_UNAVAILABLE`), never a stalled search.
 *
 * The index's `hybrid` setting is the default of searches that send neither `hybrid` nor `vector` (default
 * queries only: browsing and searches for facet values ignore `hybrid`). Such a search asked nothing of
 * vectors: when its embedder fails, it is answered as the keyword search it is without the setting, and for
 * `DEFAULT_PAUSE_MS` after a failure its embedder is not asked at all (each search would wait out the
 * timeouts first): the shop's search stays up, by its keywords, while its embedder is down.
 */
import type { ComputedEmbedder, EmbedderSettings, IndexSettings, SearchParams } from '@vitrine/protocol';
import type { ServerLimits } from '../config.ts';
import { ApiError, createError } from '../errors.ts';
import { isComputed } from '../storage/embedder-settings.ts';
import type { IndexRegistry } from '../storage/registry.ts';
import { embedWith } from './embed.ts';
import type { LocalModels } from './local-models.ts';
import { EmbedderError, vectorProblem } from './rest-client.ts';

/** Query vectors kept: at 384 dimensions, ~1.5 KB each (float32). */
const MAX_CACHED = 10_000;
/** After an embedder failed a query, how long searches it is only the default of go without it. */
export const DEFAULT_PAUSE_MS = 10_000;

/**
 * What identifies an embedder's answers: everything that changes what it is asked or how (for a local model,
 * `generation`: its loads afresh, as its files may have been replaced).
 */
export function embedderKey(embedder: ComputedEmbedder, generation = 0): string {
  if (embedder.source === 'huggingFace') return JSON.stringify(['huggingFace', embedder.model, embedder.pooling ?? 'useModel', embedder.dimensions, generation]);
  const { url, request, response, headers, apiKey, dimensions } = embedder;
  return JSON.stringify([url, request, response, headers ?? null, apiKey ?? null, dimensions]);
}

/** The settings of the index holding the records a search of `indexName` reads (a replica's primary). */
function recordsSettings(registry: IndexRegistry, indexName: string): IndexSettings | undefined {
  const entry = registry.peek(indexName);
  if (entry === undefined) return undefined;
  return typeof entry.settings.primary === 'string' ? registry.peek(entry.settings.primary)?.settings : entry.settings;
}

/** The embedders of the records a search of `indexName` reads, by name. */
function embeddersOf(registry: IndexRegistry, indexName: string): Record<string, EmbedderSettings> | undefined {
  const embedders = recordsSettings(registry, indexName)?.embedders as Record<string, EmbedderSettings> | undefined;
  return embedders === undefined || embedders === null || typeof embedders !== 'object' ? undefined : embedders;
}

/** The embedder `hybrid` names, or the index's only one. */
function namedEmbedder(embedders: Record<string, EmbedderSettings> | undefined, name: unknown): { name: string; embedder: EmbedderSettings } | null {
  const names = Object.keys(embedders ?? {});
  const chosen = typeof name === 'string' ? name : names.length === 1 ? names[0] : undefined;
  const embedder = chosen === undefined || embedders === undefined || !Object.hasOwn(embedders, chosen) ? undefined : embedders[chosen];
  return embedder === undefined ? null : { name: chosen!, embedder };
}

/**
 * The embedder a search asks the server to embed its query with, or null: `hybrid` with a share for vectors, no
 * `vector`, some text, and the embedder it names (or the index's only one) a rest or huggingFace one. The
 * engine checks the rest (a name it does not know, a ratio out of range) and answers 400.
 */
export function queryEmbedder(registry: IndexRegistry, indexName: string, params: SearchParams): { name: string; embedder: ComputedEmbedder } | null {
  const { hybrid, vector, query } = params;
  if (hybrid === undefined || hybrid === null || typeof hybrid !== 'object' || (vector !== undefined && vector !== null)) return null;
  if (typeof query !== 'string' || query.trim() === '' || hybrid.semanticRatio === 0) return null;
  const named = namedEmbedder(embeddersOf(registry, indexName), hybrid.embedder);
  return named !== null && isComputed(named.embedder) ? { name: named.name, embedder: named.embedder } : null;
}

/**
 * `params` with the index's `hybrid` setting, when they send neither `hybrid` nor `vector` and the setting names
 * an embedder the server computes (or the index has one such embedder only); undefined otherwise (an embedder
 * removed since leaves searches keyword searches, never 400s).
 */
export function withDefaultHybrid(registry: IndexRegistry, indexName: string, params: SearchParams): SearchParams | undefined {
  if (params.hybrid !== undefined || (params.vector !== undefined && params.vector !== null)) return undefined;
  const fallback = registry.peek(indexName)?.settings.hybrid;
  if (fallback === undefined || fallback === null || typeof fallback !== 'object') return undefined;
  const named = namedEmbedder(embeddersOf(registry, indexName), fallback.embedder);
  if (named === null || !isComputed(named.embedder)) return undefined;
  return { ...params, hybrid: { ...fallback, embedder: named.name } };
}

export class QueryVectors {
  private readonly cache = new Map<string, number[]>();
  private readonly calls = new Map<string, Promise<number[]>>();
  /** Per embedder (`embedderKey`): when it last failed to embed a query. */
  private readonly failedAt = new Map<string, number>();
  /** Calls made to embedders (tests: the cache answers repeated queries). */
  callsMade = 0;

  constructor(
    private readonly limits: Pick<ServerLimits, 'embedderQueryTimeoutMs' | 'embedderQueryAttempts'>,
    private readonly models: LocalModels,
  ) {}

  private keyOf(embedder: ComputedEmbedder): string {
    return embedderKey(embedder, embedder.source === 'huggingFace' ? this.models.generation(embedder) : 0);
  }

  /** The query's vector; throws `EMBEDDER_UNAVAILABLE` (503) when the embedder cannot give it. */
  async vectorFor(name: string, embedder: ComputedEmbedder, text: string): Promise<number[]> {
    const key = `${this.keyOf(embedder)}\u0000${text}`;
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

  private async embed(name: string, embedder: ComputedEmbedder, text: string): Promise<number[]> {
    this.callsMade++;
    const key = this.keyOf(embedder);
    let vector: unknown;
    try {
      // A local model computes the same vector when asked again: one attempt.
      const attempts = embedder.source === 'rest' ? this.limits.embedderQueryAttempts : 1;
      [vector] = await embedWith(this.models, embedder, [text], { timeoutMs: this.limits.embedderQueryTimeoutMs, attempts, query: true });
    } catch (error) {
      if (!(error instanceof EmbedderError)) throw error;
      this.failedAt.set(key, Date.now());
      throw createError('EMBEDDER_UNAVAILABLE', name, error.message);
    }
    const problem = vectorProblem(vector, embedder.dimensions);
    if (problem !== null) {
      this.failedAt.set(key, Date.now());
      throw createError('EMBEDDER_UNAVAILABLE', name, `it answered ${problem}`);
    }
    this.failedAt.delete(key);
    return vector as number[];
  }

  /**
   * A default query made ready for its thread: the index's `hybrid` setting applied when it sends none, and the
   * query text's vector when its embedder is one the server computes. Throws `EMBEDDER_UNAVAILABLE` (503) for
   * a search that asked for `hybrid` itself; one that did not is answered by its keywords instead.
   */
  async prepare(registry: IndexRegistry, indexName: string, params: SearchParams): Promise<{ params: SearchParams; queryVector?: number[] }> {
    const defaulted = withDefaultHybrid(registry, indexName, params);
    const searched = defaulted ?? params;
    const wanted = queryEmbedder(registry, indexName, searched);
    if (wanted === null) return { params: searched };
    if (defaulted !== undefined && Date.now() - (this.failedAt.get(this.keyOf(wanted.embedder)) ?? -Infinity) < DEFAULT_PAUSE_MS) return { params };
    try {
      return { params: searched, queryVector: await this.vectorFor(wanted.name, wanted.embedder, searched.query as string) };
    } catch (error) {
      if (defaulted !== undefined && error instanceof ApiError && error.code === 'EMBEDDER_UNAVAILABLE') return { params };
      throw error;
    }
  }

  /** Each default query of a call made ready (`prepare`), all at once. */
  async embedQueries(registry: IndexRegistry, queries: ReadonlyArray<{ indexName: string; type: string; params: SearchParams; queryVector?: number[] }>): Promise<void> {
    await Promise.all(
      queries.map(async (query) => {
        if (query.type !== 'default') return;
        const prepared = await this.prepare(registry, query.indexName, query.params);
        query.params = prepared.params;
        if (prepared.queryVector !== undefined) query.queryVector = prepared.queryVector;
      }),
    );
  }
}
