/**
 * Calls a `rest` embedder: texts in, vectors out, as its settings describe (Meilisearch's templates: the request
 * body with `"{{text}}"` at the text's place, or `["{{text}}", "{{..}}"]` for a list; the response with
 * `"{{embedding}}"` at the vector's place, in a list `[<item>, "{{..}}"]` for several). Each call has a timeout
 * and is tried again on what may pass (no answer, a 5xx, 429); what cannot (another 4xx, an answer not of the
 * template's shape, vectors of the wrong size) fails at once. Messages name what went wrong, never the URL (it
 * may hold a key), the key or the headers.
 */
import type { RestEmbedder } from '@vitrine/protocol';

const TEXT = '{{text}}';
const EMBEDDING = '{{embedding}}';
const REPEAT = '{{..}}';
/** Texts per call when the template sends a list (Meilisearch sends up to 10). */
export const TEXTS_PER_CALL = 10;
/** Calls under way at once for one `embed`. */
const CONCURRENT_CALLS = 4;
/** Largest answer read from an embedder. */
const MAX_ANSWER_BYTES = 64 << 20;

export class EmbedderError extends Error {
  override readonly name = 'EmbedderError';
  constructor(
    message: string,
    /** The same call would fail again (a 4xx, an answer of the wrong shape): no point trying again now. */
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** Whether the template sends a list of texts per call. */
export function sendsList(template: unknown): boolean {
  if (Array.isArray(template)) return (template.length === 2 && template[1] === REPEAT) || template.some(sendsList);
  if (template !== null && typeof template === 'object') return Object.values(template).some(sendsList);
  return false;
}

/** The request body for `texts` (one, unless the template sends a list). */
export function renderRequest(template: unknown, texts: readonly string[]): unknown {
  if (template === TEXT) return texts[0];
  if (Array.isArray(template)) {
    if (template.length === 2 && template[1] === REPEAT) return texts.map((text) => renderRequest(template[0], [text]));
    return template.map((item) => renderRequest(item, texts));
  }
  if (template !== null && typeof template === 'object') return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, renderRequest(value, texts)]));
  return template;
}

function holds(template: unknown, marker: string): boolean {
  if (template === marker) return true;
  if (Array.isArray(template)) return template.some((item) => holds(item, marker));
  if (template !== null && typeof template === 'object') return Object.values(template).some((item) => holds(item, marker));
  return false;
}

/** The values at the template's `{{embedding}}` in `answer`, in order; throws when the answer is not of its shape. */
export function readEmbeddings(template: unknown, answer: unknown, where = 'the answer'): unknown[] {
  if (template === EMBEDDING) return [answer];
  if (Array.isArray(template)) {
    if (!Array.isArray(answer)) throw new EmbedderError(`${where} is not a list`, true);
    if (template.length === 2 && template[1] === REPEAT) return answer.flatMap((item, i) => readEmbeddings(template[0], item, `${where}[${i}]`));
    const i = template.findIndex((item) => holds(item, EMBEDDING));
    return readEmbeddings(template[i], answer[i], `${where}[${i}]`);
  }
  if (template !== null && typeof template === 'object') {
    if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) throw new EmbedderError(`${where} is not an object`, true);
    const key = Object.keys(template).find((k) => holds((template as Record<string, unknown>)[k], EMBEDDING))!;
    return readEmbeddings((template as Record<string, unknown>)[key], (answer as Record<string, unknown>)[key], `${where}.${key}`);
  }
  return [];
}

/** A vector the engine can store (`readVector`'s rules), or why not. */
export function vectorProblem(value: unknown, dimensions: number): string | null {
  if (!Array.isArray(value)) return 'not a list of numbers';
  if (value.length !== dimensions) return `${value.length} numbers where the embedder's dimensions are ${dimensions}`;
  let nonZero = false;
  for (const x of value) {
    if (typeof x !== 'number' || !Number.isFinite(Math.fround(x))) return 'a value that is not a finite number';
    if (Math.fround(x) !== 0) nonZero = true;
  }
  return nonZero ? null : 'a vector of zeros';
}

export interface CallOptions {
  timeoutMs: number;
  /** Calls made for one request at most (what may pass is tried again). */
  attempts: number;
  /** Aborts every call (the server stopping). */
  signal?: AbortSignal;
}

/** One call: the vectors of `texts`, unchecked. */
async function call(embedder: RestEmbedder, texts: readonly string[], { timeoutMs, signal }: CallOptions): Promise<unknown[]> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...embedder.headers };
  if (typeof embedder.apiKey === 'string' && embedder.apiKey !== '') headers.authorization = `Bearer ${embedder.apiKey}`;
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(embedder.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(renderRequest(embedder.request, texts)),
      signal: signal === undefined ? timeout : AbortSignal.any([timeout, signal]),
    });
  } catch (error) {
    if (timeout.aborted) throw new EmbedderError(`no answer within ${timeoutMs} ms`, false);
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new EmbedderError(`could not be reached${cause === undefined ? '' : ` (${cause})`}`, false);
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    throw new EmbedderError(timeout.aborted ? `no whole answer within ${timeoutMs} ms` : 'the answer was cut short', false);
  }
  if (!response.ok) throw new EmbedderError(`answered ${response.status}`, response.status < 500 && response.status !== 429 && response.status !== 408);
  if (text.length > MAX_ANSWER_BYTES) throw new EmbedderError(`answered more than ${MAX_ANSWER_BYTES} bytes`, true);
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    throw new EmbedderError('answered something that is not JSON', true);
  }
  const vectors = readEmbeddings(embedder.response, answer);
  if (vectors.length !== texts.length) throw new EmbedderError(`answered ${vectors.length} vectors for ${texts.length} texts`, true);
  return vectors;
}

async function withAttempts<T>(attempt: () => Promise<T>, { attempts, signal }: CallOptions): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof EmbedderError) || error.permanent || n >= attempts || signal?.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * n));
    }
  }
}

/**
 * The vectors of `texts` (one call per text, or per `TEXTS_PER_CALL` when the template sends lists), each
 * unchecked: `vectorProblem` tells what is wrong with one. Throws `EmbedderError`.
 */
export async function embedTexts(embedder: RestEmbedder, texts: readonly string[], options: CallOptions): Promise<unknown[]> {
  const per = sendsList(embedder.request) ? TEXTS_PER_CALL : 1;
  const groups: string[][] = [];
  for (let i = 0; i < texts.length; i += per) groups.push(texts.slice(i, i + per));
  const out: unknown[][] = new Array(groups.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < groups.length) {
      const i = next++;
      out[i] = await withAttempts(() => call(embedder, groups[i], options), options);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENT_CALLS, groups.length) }, worker));
  return out.flat();
}
