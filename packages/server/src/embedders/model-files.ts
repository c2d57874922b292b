/**
 * A local sentence model, loaded from its folder and run (on the model thread, `model-thread.ts`, never on the
 * main thread: inference holds the thread it runs on). The folder is laid out as the Hugging Face Hub's ONNX
 * exports are: `tokenizer.json` (with `tokenizer_config.json` beside it, optional), the graph as `model.onnx`
 * or `onnx/model.onnx`, and, for sentence-transformers models, `1_Pooling/config.json` and
 * `sentence_bert_config.json` (optional). Nothing is ever fetched: a file missing is an error naming it.
 *
 * Texts are tokenized by `@huggingface/tokenizers` (the Hub's tokenizer.json, in JavaScript), cut to the
 * model's length, padded into one batch and run by `onnxruntime-node` (CPU, one thread: the machine's cores
 * answer searches). ONNX Runtime is an optional peer of the server, loaded at the first model: a shop without
 * local models does not install its native libraries (README, *A local model*). The graph's inputs are fed by name (`input_ids`, `attention_mask`, `token_type_ids`); its
 * output is a sentence vector already (`sentence_embedding`) or a vector per token (`last_hidden_state`),
 * pooled here by the mean over the real tokens or by the first one. Vectors are normalised to length 1.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as OnnxRuntimeModule from 'onnxruntime-node';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { Tokenizer } from '@huggingface/tokenizers';

type OnnxRuntime = typeof OnnxRuntimeModule;

export type Pooling = 'useModel' | 'forceMean' | 'forceCls';

/** Tokens per text at most when the folder does not say (BERT-like models' position table). */
const DEFAULT_MAX_TOKENS = 512;
const ONNX_FILES = ['model.onnx', join('onnx', 'model.onnx')];
const KNOWN_INPUTS = new Set(['input_ids', 'attention_mask', 'token_type_ids']);

/** A model that cannot be loaded or run: the message says what is wrong, for the settings' 400 or the status. */
export class ModelError extends Error {
  override readonly name = 'ModelError';
}

export interface LoadedModel {
  ort: OnnxRuntime;
  session: InferenceSession;
  tokenizer: Tokenizer;
  pooling: 'mean' | 'cls';
  maxTokens: number;
  output: string;
}

function readJson(folder: string, file: string, name: string, required: boolean): Record<string, unknown> | undefined {
  const path = join(folder, file);
  if (!existsSync(path)) {
    if (required) throw new ModelError(`the model folder "${name}" has no ${file}`);
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not a JSON object');
    return value as Record<string, unknown>;
  } catch (error) {
    throw new ModelError(`${file} of the model folder "${name}" cannot be read (${(error as Error).message})`);
  }
}

/** The most tokens a text keeps: the folder's `sentence_bert_config.json` (`max_seq_length`), its tokenizer's `model_max_length`, else 512. */
function maxTokensOf(folder: string, name: string, tokenizerConfig: Record<string, unknown> | undefined): number {
  const sentence = readJson(folder, 'sentence_bert_config.json', name, false)?.max_seq_length;
  const fromTokenizer = tokenizerConfig?.model_max_length;
  for (const value of [sentence, fromTokenizer]) if (typeof value === 'number' && Number.isInteger(value) && value >= 2 && value <= 8192) return value;
  return DEFAULT_MAX_TOKENS;
}

function poolingOf(folder: string, name: string, pooling: Pooling): 'mean' | 'cls' {
  if (pooling === 'forceMean') return 'mean';
  if (pooling === 'forceCls') return 'cls';
  return readJson(folder, join('1_Pooling', 'config.json'), name, false)?.pooling_mode_cls_token === true ? 'cls' : 'mean';
}

let runtime: Promise<OnnxRuntime> | undefined;

/** ONNX Runtime, loaded once; a clear error where it is not installed. */
function onnxRuntime(): Promise<OnnxRuntime> {
  runtime ??= import('onnxruntime-node').then(
    (module) => ((module as { default?: OnnxRuntime }).default ?? module) as OnnxRuntime,
    () => {
      runtime = undefined;
      throw new ModelError('onnxruntime-node is not installed beside Vitrine: install it where Vitrine is installed (README, "A local model")');
    },
  );
  return runtime;
}

/** Loads the model of `folder` (`name`: how messages call it). Throws `ModelError`. */
export async function loadModel(folder: string, name: string, pooling: Pooling): Promise<LoadedModel> {
  if (!existsSync(folder)) throw new ModelError(`there is no model folder "${name}" in the models folder`);
  const tokenizerJson = readJson(folder, 'tokenizer.json', name, true)!;
  const tokenizerConfig = readJson(folder, 'tokenizer_config.json', name, false);
  let tokenizer: Tokenizer;
  try {
    tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig ?? {});
  } catch (error) {
    throw new ModelError(`tokenizer.json of the model folder "${name}" is not a tokenizer this version reads (${(error as Error).message})`);
  }
  const file = ONNX_FILES.find((candidate) => existsSync(join(folder, candidate)));
  if (file === undefined) throw new ModelError(`the model folder "${name}" has no model.onnx (nor onnx/model.onnx)`);
  const ort = await onnxRuntime();
  let session: InferenceSession;
  try {
    session = await ort.InferenceSession.create(join(folder, file), {
      executionProviders: ['cpu'],
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      // Warnings (an input the graph does not use) are not the shop's concern; errors are thrown.
      logSeverityLevel: 3,
    });
  } catch (error) {
    throw new ModelError(`${file} of the model folder "${name}" cannot be loaded (${(error as Error).message})`);
  }
  const unknown = session.inputNames.filter((input) => !KNOWN_INPUTS.has(input));
  if (unknown.length > 0 || !session.inputNames.includes('input_ids')) {
    await session.release();
    throw new ModelError(`${file} of the model folder "${name}" takes ${session.inputNames.join(', ')}: a sentence model takes input_ids (and attention_mask, token_type_ids)`);
  }
  const output = ['sentence_embedding', 'last_hidden_state'].find((candidate) => session.outputNames.includes(candidate)) ?? session.outputNames[0];
  return { ort, session, tokenizer, pooling: poolingOf(folder, name, pooling), maxTokens: maxTokensOf(folder, name, tokenizerConfig), output };
}

/** The token ids of `text`, cut to `max` keeping the last one (the closing special token of BERT-like models). */
export function tokenIds(tokenizer: Tokenizer, text: string, max: number): number[] {
  const { ids } = tokenizer.encode(text);
  return ids.length <= max ? ids : [...ids.slice(0, max - 1), ids[ids.length - 1]];
}

/** `vector` scaled to length 1 (a vector of zeros stays so: the caller refuses it). */
export function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const x of vector) sum += x * x;
  if (sum === 0) return vector;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i] *= scale;
  return vector;
}

/**
 * One vector per text from a model's per-token output (`data`, `[texts, tokens, dimensions]`): the mean of the
 * vectors of each text's real tokens (`lengths`: padding left out), or its first token's.
 */
export function pool(data: Float32Array, tokens: number, dimensions: number, lengths: readonly number[], pooling: 'mean' | 'cls'): Float32Array[] {
  return lengths.map((length, t) => {
    const vector = new Float32Array(dimensions);
    const count = pooling === 'cls' ? 1 : length;
    for (let k = 0; k < count; k++) {
      const at = (t * tokens + k) * dimensions;
      for (let d = 0; d < dimensions; d++) vector[d] += data[at + d];
    }
    if (pooling === 'mean') for (let d = 0; d < dimensions; d++) vector[d] /= length;
    return vector;
  });
}

/** The normalised vectors of `texts`, in one run of the model. Throws `ModelError`. */
export async function embedBatch(model: LoadedModel, texts: readonly string[]): Promise<Float32Array[]> {
  const ids = texts.map((text) => tokenIds(model.tokenizer, text, model.maxTokens));
  const tokens = Math.max(1, ...ids.map((list) => list.length));
  const shape = [texts.length, tokens];
  // Padding is id 0 with a mask of 0: the graph's attention ignores it, and pooling leaves it out.
  const inputIds = new BigInt64Array(texts.length * tokens);
  const mask = new BigInt64Array(texts.length * tokens);
  ids.forEach((list, t) => list.forEach((id, k) => {
    inputIds[t * tokens + k] = BigInt(id);
    mask[t * tokens + k] = 1n;
  }));
  const feeds: Record<string, Tensor> = {};
  for (const input of model.session.inputNames) {
    const data = input === 'input_ids' ? inputIds : input === 'attention_mask' ? mask : new BigInt64Array(texts.length * tokens);
    feeds[input] = new model.ort.Tensor('int64', data, shape);
  }
  let out: Tensor;
  try {
    out = (await model.session.run(feeds, [model.output]))[model.output];
  } catch (error) {
    throw new ModelError(`the model failed to run (${(error as Error).message})`);
  }
  if (out.type !== 'float32') throw new ModelError(`the model's output ${model.output} is ${out.type}, not float32`);
  const data = out.data as Float32Array;
  if (out.dims.length === 2 && out.dims[0] === texts.length) {
    const size = out.dims[1];
    return texts.map((_, t) => normalise(data.slice(t * size, (t + 1) * size)));
  }
  if (out.dims.length !== 3 || out.dims[0] !== texts.length || out.dims[1] !== tokens) {
    throw new ModelError(`the model's output ${model.output} has the shape [${out.dims.join(', ')}]: expected one vector per text or per token`);
  }
  return pool(data, tokens, out.dims[2], ids.map((list) => list.length), model.pooling).map(normalise);
}
