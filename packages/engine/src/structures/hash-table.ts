/**
 * What the engine's open-addressing tables of ids share (objectIDs, facet values): FNV-1a hashes, over bytes or
 * over a string's UTF-16 code units (the same value for ASCII), and the size of a table.
 */

/** FNV-1a over `bytes[from, end)`. */
export function hashBytes(bytes: Uint8Array, end: number, from = 0): number {
  let h = 0x811c9dc5;
  for (let i = from; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

/** FNV-1a over `text`'s UTF-16 code units: for ASCII text, `hashBytes` of its UTF-8 bytes. */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The smallest power of two, at least `min`, giving `entries` `slotsPerEntry` slots each. */
export function tableSizeFor(entries: number, slotsPerEntry: number, min: number): number {
  let size = min;
  while (size < entries * slotsPerEntry) size *= 2;
  return size;
}
