/**
 * Index synonyms, compiled for lookup by normalised word: regular synonyms make every member an alternative of
 * every other; one-way synonyms make the alternatives apply to `input` only. Multi-word members are kept as
 * word sequences (matched as a whole, see `expand.ts`). Alternative corrections and placeholders are stored
 * (the server returns them) but do not affect matching.
 */
import type { SynonymHit } from '@vitrine/protocol';
import { createEngineError } from '../errors.ts';
import { terms } from '../tokenize/index.ts';

export type SynonymTable = Map<string, string[][]>;

export function validateSynonym(hit: SynonymHit): void {
  if (hit === null || typeof hit !== 'object' || typeof hit.objectID !== 'string' || hit.objectID === '') {
    throw createEngineError('INVALID_PARAMETER', 'synonyms', 'every synonym needs a string objectID');
  }
  const lists: Record<string, unknown> = { synonym: hit.synonyms, onewaysynonym: hit.synonyms };
  if (hit.type in lists && (!Array.isArray(lists[hit.type]) || (lists[hit.type] as unknown[]).some((s) => typeof s !== 'string'))) {
    throw createEngineError('INVALID_PARAMETER', 'synonyms', `synonym ${hit.objectID} needs a "synonyms" array of strings`);
  }
  if (hit.type === 'onewaysynonym' && typeof hit.input !== 'string') {
    throw createEngineError('INVALID_PARAMETER', 'synonyms', `one-way synonym ${hit.objectID} needs an "input" string`);
  }
  if (!['synonym', 'onewaysynonym', 'altcorrection1', 'altcorrection2', 'placeholder'].includes(hit.type)) {
    throw createEngineError('INVALID_PARAMETER', 'synonyms', `unknown synonym type "${String(hit.type)}"`);
  }
}

/** Keyed by the normalised single word (or the space-joined words) a query may contain. */
export function compileSynonyms(hits: SynonymHit[], separatorsToIndex: string): SynonymTable {
  const table: SynonymTable = new Map();
  const add = (from: string[], to: string[]): void => {
    if (from.length === 0 || to.length === 0 || from.join(' ') === to.join(' ')) return;
    const key = from.join(' ');
    const list = table.get(key) ?? [];
    if (!list.some((existing) => existing.join(' ') === to.join(' '))) list.push(to);
    table.set(key, list);
  };
  for (const hit of hits) {
    if (hit.type === 'synonym') {
      const members = (hit.synonyms ?? []).map((s) => terms(s, separatorsToIndex));
      for (const a of members) for (const b of members) if (a !== b) add(a, b);
    } else if (hit.type === 'onewaysynonym') {
      const input = terms(hit.input ?? '', separatorsToIndex);
      for (const s of hit.synonyms ?? []) add(input, terms(s, separatorsToIndex));
    }
  }
  return table;
}
