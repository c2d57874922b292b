/**
 * Text normalisation shared by indexing, querying, highlighting and facet matching, so that all of them agree
 * on what "the same word" means: case folded, diacritics removed (é = e, ß = ss), compatibility forms unified.
 */
const COMBINING_MARKS = /\p{M}/gu;
const SPECIAL_FOLDS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ł: 'l', ı: 'i', þ: 'th' };
const SPECIAL_FOLD_PATTERN = /[ßæœøđłıþ]/g;
// eslint-disable-next-line no-control-regex -- the ASCII range starts at NUL on purpose
const ASCII_ONLY = /^[\x00-\x7f]*$/;

/** Folds case and diacritics. Pure ASCII takes a fast path: most catalogue text is ASCII. */
export function normalizeText(text: string): string {
  if (ASCII_ONLY.test(text)) return text.toLowerCase();
  return text
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase()
    .replace(SPECIAL_FOLD_PATTERN, (ch) => SPECIAL_FOLDS[ch] ?? ch);
}
