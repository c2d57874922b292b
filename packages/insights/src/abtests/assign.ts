/**
 * Which variant a searcher sees: a hash of the test's id and the searcher (the user token, else the client's
 * address, as Algolia does for searches without a token) picks a bucket from 0 to 99, and the first variant
 * takes the buckets below its traffic percentage. The same searcher always lands in the same variant of a test,
 * and, the id being hashed in, not in the same half of every test.
 */

/** FNV-1a, 32 bits: fast on short strings, and spreads tokens that differ by one character. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  // A final mix: FNV's low bits (what `% 100` reads) follow the last characters too closely.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  return hash >>> 0;
}

/** The searcher's bucket in a test, 0 to 99. */
export function bucketOf(abTestID: number, searcher: string): number {
  return fnv1a(`${abTestID}:${searcher}`) % 100;
}

/** The variant (1 or 2) of a searcher, given the first variant's traffic percentage. */
export function variantOf(abTestID: number, searcher: string, firstPercentage: number): 1 | 2 {
  return bucketOf(abTestID, searcher) < firstPercentage ? 1 : 2;
}
