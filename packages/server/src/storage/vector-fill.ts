/**
 * How records keep and get the vectors of the embedders the server computes (`rest`, `huggingFace`), as batches are applied (deterministic: it depends
 * on the state and the operation only, as every apply must).
 *
 * - A write that gives `_vectors` has them as given (the caller brought its own).
 * - Any other write keeps a rest embedder's vector while the record's text for that embedder is unchanged (a
 *   price or stock update), and drops it when the text changed: the server then embeds the new text, after the
 *   write is logged (`embedders/document-vectors.ts`), and logs the vector as a `fillVector` request.
 * - A `fillVector` request sets the vector only if the record still has none for that embedder and its text is
 *   still the one embedded (the hash of it): a write made meanwhile wins, and its own text is embedded next.
 */
import { parseEmbedders } from '@vitrine/engine';
import type { ComputedEmbedder, EmbedderSettings, IndexRecord, IndexSettings } from '@vitrine/protocol';
import { documentText, textHash } from './document-template.ts';
import { isComputed } from './embedder-settings.ts';

export interface FilledVector {
  embedder: string;
  /** `textHash` of the text the vector was made from. */
  textHash: string;
  values: number[];
}

type Vectors = Record<string, unknown>;

function vectorsOf(record: IndexRecord | undefined): Vectors | undefined {
  const vectors = record?._vectors;
  return vectors !== null && typeof vectors === 'object' && !Array.isArray(vectors) ? (vectors as Vectors) : undefined;
}

/**
 * `next` (what a write made of the record `before`, or a new one) with the rest embedders' vectors kept where
 * the text is unchanged and dropped elsewhere, unless the write's `body` gave `_vectors`.
 */
export function followText(rest: ReadonlyArray<[string, ComputedEmbedder]>, settings: IndexSettings, before: IndexRecord | undefined, next: IndexRecord, body: Record<string, unknown>): IndexRecord {
  if (Object.prototype.hasOwnProperty.call(body, '_vectors')) return next;
  const old = vectorsOf(before);
  const vectors: Vectors = { ...vectorsOf(next) };
  let changed = false;
  for (const [name, embedder] of rest) {
    const kept = old?.[name];
    const same = kept !== undefined && kept !== null && documentText(before!, embedder, settings) === documentText(next, embedder, settings);
    if (same && vectors[name] !== kept) {
      vectors[name] = kept;
      changed = true;
    } else if (!same && name in vectors) {
      delete vectors[name];
      changed = true;
    }
  }
  if (!changed) return next;
  const out: IndexRecord = { ...next };
  if (Object.keys(vectors).length > 0) out._vectors = vectors;
  else delete out._vectors;
  return out;
}

/** `record` with the filled vector, or undefined when it no longer applies (see the file's comment). */
export function withFilledVector(record: IndexRecord, fill: FilledVector, settings: IndexSettings): IndexRecord | undefined {
  const embedder = (settings.embedders as Record<string, EmbedderSettings> | undefined)?.[fill.embedder];
  if (!isComputed(embedder)) return undefined;
  // Settings changed meanwhile (dimensions): the vector is of no use.
  if (parseEmbedders(settings.embedders).find((e) => e.name === fill.embedder)?.dimensions !== fill.values.length) return undefined;
  const vectors = vectorsOf(record);
  if (vectors?.[fill.embedder] !== undefined && vectors[fill.embedder] !== null) return undefined;
  if (textHash(documentText(record, embedder, settings)) !== fill.textHash) return undefined;
  return { ...record, _vectors: { ...vectors, [fill.embedder]: fill.values } };
}
