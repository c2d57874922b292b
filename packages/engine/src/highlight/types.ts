/**
 * What highlighting and snippeting need to know of a query: its words, normalised, with how each may match.
 * Built by the query stage; consumed by `highlight/`.
 */
export interface HighlightWord {
  /** The word as the shopper typed it (reported in `matchedWords`). */
  original: string;
  /** Normalised form (see `normalizeText`). */
  term: string;
  /** The word may match as a prefix (last word with prefixLast, every word with prefixAll). */
  prefix: boolean;
  /** Typos allowed for this word (0, 1 or 2), as the matcher allowed them. */
  maxTypos: number;
  /** Synonyms or plural forms that also count as this word (normalised). */
  alternatives?: string[];
}

export interface HighlightQuery {
  words: HighlightWord[];
}

export interface HighlightOptions {
  preTag: string;
  postTag: string;
  separatorsToIndex: string;
}

export interface SnippetOptions extends HighlightOptions {
  ellipsis: string;
}
