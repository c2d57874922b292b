export { normalizeText } from './normalize.ts';
export { tokenize, terms, forEachToken, type Token, type TokenVisitor } from './tokenize.ts';
