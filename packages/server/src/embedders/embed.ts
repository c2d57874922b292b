/**
 * Texts to vectors with an embedder whose vectors the server makes: a `rest` one calls its endpoint
 * (`rest-client.ts`), a `huggingFace` one runs its model on the model thread (`local-models.ts`). Both fail
 * with `EmbedderError`, and neither checks the vectors (`vectorProblem` does), so callers treat them alike.
 */
import type { ComputedEmbedder } from '@vitrine/protocol';
import type { LocalModels } from './local-models.ts';
import { embedTexts, type CallOptions } from './rest-client.ts';

export interface EmbedCall extends CallOptions {
  /** A search's query (a local model runs it before waiting records' texts). */
  query: boolean;
}

export function embedWith(models: LocalModels, embedder: ComputedEmbedder, texts: readonly string[], call: EmbedCall): Promise<unknown[]> {
  return embedder.source === 'rest' ? embedTexts(embedder, texts, call) : models.embed(embedder, texts, call);
}
