/**
 * Shorter queries to offer when a query finds nothing: each one drops a single word, the last word first
 * ("laptop bag" → "laptop", then "bag"), at most `limit` of them.
 */
export function relaxedQueries(query: string, limit = 4): string[] {
  const words = query.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) return [];
  const candidates: string[] = [];
  for (let dropped = words.length - 1; dropped >= 0 && candidates.length < limit; dropped--) {
    const candidate = words.filter((_, index) => index !== dropped).join(' ');
    if (!candidates.includes(candidate)) candidates.push(candidate);
  }
  return candidates;
}
