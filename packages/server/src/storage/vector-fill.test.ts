/**
 * How records keep and get rest embedders' vectors as batches apply (`vector-fill.ts`), on records by hand:
 * a write keeps the vector while the text stays, drops it when the text changes, keeps what the write gives
 * and never touches a userProvided embedder's; a filled vector lands only on the record and text it was made
 * for (a write in between wins), and only while the embedder still has its dimensions.
 */
import type { IndexSettings, RestEmbedder } from '@vitrine/protocol';
import { describe, expect, it } from 'vitest';
import { documentText, textHash } from './document-template.ts';
import { restEmbedders } from './embedder-settings.ts';
import { followText, withFilledVector } from './vector-fill.ts';

const rest: RestEmbedder = { source: 'rest', dimensions: 2, url: 'http://127.0.0.1:1/e', request: { input: '{{text}}' }, response: { e: '{{embedding}}' }, documentTemplate: '{{doc.name}}' };
const settings: IndexSettings = { embedders: { txt: rest, img: { source: 'userProvided', dimensions: 2 } } };
const before = { objectID: 'a', name: 'mug', price: 3, _vectors: { txt: [1, 0], img: [0, 1] } };
const follow = (next: Record<string, unknown>, body: Record<string, unknown> = next) => followText(restEmbedders(settings), settings, before, { objectID: 'a', ...next }, body);

describe('followText', () => {
  it('keeps a rest vector while the text stays, drops it when the text changes', () => {
    expect(follow({ name: 'mug', price: 4 })._vectors).toEqual({ txt: [1, 0] });
    expect(follow({ name: 'cup', price: 4 })).not.toHaveProperty('_vectors');
    // A partial update's result holds the old vectors: the userProvided one stays, the rest one follows the text.
    expect(follow({ name: 'cup', _vectors: before._vectors }, { name: 'cup' })._vectors).toEqual({ img: [0, 1] });
    expect(follow({ name: 'mug', _vectors: before._vectors }, { price: 5 })._vectors).toEqual(before._vectors);
  });

  it('keeps what the write gives', () => {
    expect(follow({ name: 'cup', _vectors: { txt: [0, 1] } })._vectors).toEqual({ txt: [0, 1] });
    expect(follow({ name: 'mug', _vectors: null })._vectors).toBeNull();
  });
});

describe('withFilledVector', () => {
  const record = { objectID: 'a', name: 'mug' };
  const fill = { embedder: 'txt', textHash: textHash(documentText(record, rest, settings)), values: [0.5, 0.5] };

  it('sets the vector on the record and text it was made for', () => {
    expect(withFilledVector(record, fill, settings)?._vectors).toEqual({ txt: [0.5, 0.5] });
    expect(withFilledVector({ ...record, _vectors: { img: [1, 1] } }, fill, settings)?._vectors).toEqual({ img: [1, 1], txt: [0.5, 0.5] });
  });

  it('leaves a record whose text changed, that has a vector, or whose embedder changed', () => {
    expect(withFilledVector({ ...record, name: 'cup' }, fill, settings)).toBeUndefined();
    expect(withFilledVector({ ...record, _vectors: { txt: [1, 0] } }, fill, settings)).toBeUndefined();
    expect(withFilledVector(record, fill, { embedders: { txt: { ...rest, dimensions: 3 } } })).toBeUndefined();
    expect(withFilledVector(record, fill, { embedders: { txt: { source: 'userProvided', dimensions: 2 } } })).toBeUndefined();
    expect(withFilledVector(record, fill, {})).toBeUndefined();
  });
});
