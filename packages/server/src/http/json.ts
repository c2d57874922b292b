/**
 * JSON parsing for request bodies and `params` values: JSON.parse, then one iterative walk that enforces the
 * nesting cap (deep values would later overflow the stack in JSON.stringify and recursive code) and rejects
 * prototype-poisoning keys (`__proto__`, `constructor.prototype`), which Fastify's own parser also refuses.
 */
import { createError } from '../errors.ts';

export function parseJsonSafely(text: string, maxDepth: number): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw createError('MALFORMED_JSON', (error as Error).message);
  }
  // A value nested N levels deep needs at least N opening characters: short texts cannot break the cap.
  const mayPoison = text.includes('__proto__') || text.includes('constructor') || text.includes('\\u');
  if (text.length > maxDepth || mayPoison) checkJsonValue(value, maxDepth, mayPoison);
  return value;
}

export function checkJsonValue(root: unknown, maxDepth: number, checkKeys = true): void {
  const stack: Array<{ value: unknown; depth: number }> = [{ value: root, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= maxDepth) throw createError('JSON_TOO_DEEP', maxDepth);
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push({ value: item, depth: depth + 1 });
      continue;
    }
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      if (checkKeys) {
        if (key === '__proto__') throw createError('MALFORMED_JSON', 'forbidden key "__proto__"');
        if (key === 'constructor' && typeof child === 'object' && child !== null && Object.hasOwn(child, 'prototype')) {
          throw createError('MALFORMED_JSON', 'forbidden key "constructor.prototype"');
        }
      }
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
}
