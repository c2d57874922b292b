/**
 * Validates answers against Algolia's OpenAPI specs (the bundled files in `fixtures/algolia-openapi/`, copied
 * unchanged): the success (200 or 201) response schema of an operation, found by its `operationId`, checked with Ajv. The bundles
 * keep internal `$ref`s (`#/components/...`), so each spec is added to Ajv whole under its file name and an
 * operation's schema is referenced into it. OpenAPI 3.0's `nullable` is Ajv's own keyword; other OpenAPI-only
 * keywords (`example`, `x-…`) are ignored (`strict: false`).
 *
 * One reading differs from plain JSON Schema, in memory only: the specs compose objects with `allOf` whose parts
 * each say `additionalProperties: false` (code generators merge the parts), which JSON Schema reads as "no
 * object passes". Such parts are opened and the composition closed instead (`unevaluatedProperties: false`,
 * draft 2019-09), so a property outside every part still fails. And `oneOf` is read as `anyOf`: some lists
 * overlap (a search result is `searchResponse` or `searchResponsePartial`, which every full response matches
 * too), so "exactly one" would refuse every valid answer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv/dist/2019.js';
import type { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

const SPEC_DIR = join(import.meta.dirname, '..', 'fixtures', 'algolia-openapi');
export const SPEC_FILES = ['search', 'insights', 'recommend'] as const;

type Json = Record<string, unknown>;

/** JSON pointer escaping (`/` → `~1`, `~` → `~0`). */
const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function resolveLocal(doc: Json, ref: string): Json {
  let node: unknown = doc;
  for (const part of ref.replace(/^#\//, '').split('/')) node = (node as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node as Json;
}

/** Moves `additionalProperties: false` from the parts of each `allOf` to the composition; `oneOf` as `anyOf` (see above). */
function closeCompositions(doc: Json): void {
  const parts = new Set<Json>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    const schema = node as Json;
    if (Array.isArray(schema.oneOf)) {
      schema.anyOf = schema.oneOf;
      delete schema.oneOf;
    }
    if (Array.isArray(schema.allOf)) {
      const targets = schema.allOf.map((part: Json) => (typeof part.$ref === 'string' ? resolveLocal(doc, part.$ref) : part));
      if (targets.some((target) => target.additionalProperties === false)) schema.unevaluatedProperties = false;
      for (const target of targets) parts.add(target);
    }
    for (const value of Object.values(schema)) walk(value);
  };
  walk(doc);
  // A part closed on its own would refuse the other parts' properties.
  for (const part of parts) {
    if (part.additionalProperties === false) delete part.additionalProperties;
    delete part.unevaluatedProperties;
  }
}

export class SpecValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly operations = new Map<string, { spec: string; pointer: string }>();
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    addFormats(this.ajv);
    for (const spec of SPEC_FILES) {
      const doc = parse(readFileSync(join(SPEC_DIR, `${spec}.yml`), 'utf8')) as Json;
      closeCompositions(doc);
      this.ajv.addSchema(doc, spec);
      for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
        for (const [method, operation] of Object.entries(item)) {
          const op = operation as Json;
          if (typeof op.operationId !== 'string') continue;
          // A response may itself be a `$ref` to `components/responses`: its schema is then under that object.
          // The success answer: 200, or 201 (saveObject).
          const status = ['200', '201'].find((code) => (op.responses as Json | undefined)?.[code] !== undefined);
          if (!status) continue;
          const ok = (op.responses as Json)[status] as Json;
          const base = typeof ok.$ref === 'string' ? ok.$ref.slice(1) : `/paths/${escape(path)}/${method}/responses/${status}`;
          const response = typeof ok.$ref === 'string' ? resolveLocal(doc, ok.$ref) : ok;
          if (!(response.content as Json | undefined)?.['application/json']) continue;
          this.operations.set(op.operationId, { spec, pointer: `${base}/content/application~1json/schema` });
        }
      }
    }
  }

  has(operationId: string): boolean {
    return this.operations.has(operationId);
  }

  /** The schema errors of `body` as the success answer of `operationId` (empty: valid). */
  errors(operationId: string, body: unknown): string[] {
    let validate = this.compiled.get(operationId);
    if (!validate) {
      const operation = this.operations.get(operationId);
      if (!operation) throw new Error(`no operation ${operationId} with a JSON success response in the specs`);
      validate = this.ajv.compile({ $ref: `${operation.spec}#${operation.pointer}` });
      this.compiled.set(operationId, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`);
  }
}
