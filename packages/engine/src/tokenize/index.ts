export { normalizeText } from './normalize.ts';
export { tokenize, terms, type Token } from './tokenize.ts';
