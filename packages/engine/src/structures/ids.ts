/**
 * Internal document ids: dense uint32 indexes into every per-document array of an index. Branded so that an
 * internal id is never mixed up with a caller's `objectID` (a string) or with any other number by accident.
 */
export type DocId = number & { readonly __brand: 'DocId' };

export function asDocId(id: number): DocId {
  return id as DocId;
}
