import { createEngineError } from '../errors.ts';
import type { NumericOperator } from './types.ts';

/**
 * Tokens of the `filters` language. The lexer is pull-based (the parser asks for one token at a time), so a
 * hostile input is rejected by the parser's limits after reading only the part that broke them.
 */
export type Token =
  | { type: 'lparen'; start: number }
  | { type: 'rparen'; start: number }
  | { type: 'colon'; start: number }
  | { type: 'op'; start: number; op: NumericOperator }
  /** An unquoted word; `AND`, `OR`, `NOT` and `TO` are words the parser treats as keywords. */
  | { type: 'word'; start: number; text: string }
  /** A single- or double-quoted string, escapes resolved. Never a keyword. */
  | { type: 'quoted'; start: number; text: string }
  | { type: 'end'; start: number };

export const KEYWORDS: ReadonlySet<string> = new Set(['AND', 'OR', 'NOT', 'TO']);

/** Characters that end an unquoted word (besides whitespace and the `!=` operator). */
const WORD_STOP = new Set(['(', ')', ':', '<', '>', '=']);

function isSpace(code: number): boolean {
  // Space, tab, CR, LF, VT, FF, NBSP and the Unicode spaces JavaScript's \s knows.
  return code === 32 || (code >= 9 && code <= 13) || code === 0xa0 || (code > 127 && /\s/.test(String.fromCharCode(code)));
}

export class Lexer {
  private index = 0;
  private peeked: Token | undefined;

  constructor(private readonly input: string) {}

  peek(): Token {
    this.peeked ??= this.scan();
    return this.peeked;
  }

  next(): Token {
    const token = this.peek();
    this.peeked = undefined;
    return token;
  }

  private scan(): Token {
    const input = this.input;
    let i = this.index;
    while (i < input.length && isSpace(input.charCodeAt(i))) i++;
    const start = i;
    if (i >= input.length) {
      this.index = i;
      return { type: 'end', start };
    }
    const ch = input[i];
    if (ch === '(' || ch === ')' || ch === ':') {
      this.index = i + 1;
      return { type: ch === '(' ? 'lparen' : ch === ')' ? 'rparen' : 'colon', start };
    }
    if (ch === '<' || ch === '>' || ch === '=' || (ch === '!' && input[i + 1] === '=')) {
      const withEquals = ch !== '=' && input[i + 1] === '=';
      this.index = i + (withEquals ? 2 : 1);
      return { type: 'op', start, op: (withEquals ? `${ch}=` : ch) as NumericOperator };
    }
    if (ch === '"' || ch === "'") return this.scanQuoted(start, ch);
    // Quotes are only special at the start of a token: inside a word (o'neil) they are ordinary characters.
    while (i < input.length) {
      const c = input[i];
      if (isSpace(input.charCodeAt(i)) || WORD_STOP.has(c) || (c === '!' && input[i + 1] === '=')) break;
      i++;
    }
    this.index = i;
    return { type: 'word', start, text: input.slice(start, i) };
  }

  private scanQuoted(start: number, quote: string): Token {
    const input = this.input;
    let text = '';
    let chunkStart = start + 1;
    for (let i = start + 1; i < input.length; i++) {
      const c = input[i];
      if (c === '\\' && i + 1 < input.length) {
        // A backslash escapes whatever follows it (\" \' \\ and, harmlessly, any other character).
        text += input.slice(chunkStart, i);
        chunkStart = i + 1;
        i++;
      } else if (c === quote) {
        text += input.slice(chunkStart, i);
        this.index = i + 1;
        return { type: 'quoted', start, text };
      }
    }
    throw createEngineError('FILTER_SYNTAX', 'Unterminated quoted string', start + 1);
  }
}

/** How a token is named in error messages: its text in double quotes (cut when long), or "end of input". */
export function describeToken(token: Token, input: string): string {
  if (token.type === 'end') return 'end of input';
  let text: string;
  switch (token.type) {
    case 'lparen':
      text = '(';
      break;
    case 'rparen':
      text = ')';
      break;
    case 'colon':
      text = ':';
      break;
    case 'op':
      text = token.op;
      break;
    case 'word':
      text = token.text;
      break;
    case 'quoted':
      text = input[token.start] + token.text + input[token.start];
      break;
  }
  if (text.length > 40) text = `${text.slice(0, 37)}...`;
  return token.type === 'quoted' ? `token ${text}` : `token ${JSON.stringify(text)}`;
}
