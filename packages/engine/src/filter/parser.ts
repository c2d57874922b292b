/**
 * Parser for Algolia's `filters` language.
 *
 * Grammar (EBNF). Whitespace may appear between any two tokens; keywords are case-sensitive and only
 * recognised unquoted.
 *
 *   filter      = or_expr END ;
 *   or_expr     = and_expr { "OR" and_expr } ;
 *   and_expr    = unary { "AND" unary } ;                      (* AND binds tighter than OR *)
 *   unary       = "NOT" unary | primary ;
 *   primary     = "(" or_expr ")" | condition ;
 *   condition   = name ":" value "TO" number                   (* inclusive range *)
 *               | name ":" value                               (* facet equality; _tags:value is a tag *)
 *               | name comparison number                       (* numeric comparison *)
 *               | name ;                                       (* bare value: a tag, see below *)
 *   comparison  = "<" | "<=" | "=" | "!=" | ">=" | ">" ;
 *   name        = word | quoted ;
 *   value       = word | quoted ;
 *   number      = word matching [+-]? ( digits [ "." digits? ] | "." digits ) [ ( "e" | "E" ) [+-]? digits ] ;
 *   word        = a run of characters other than whitespace, "(", ")", ":", "<", ">", "=" and "!=",
 *                 not starting with a quote, and not one of the keywords AND, OR, NOT, TO ;
 *   quoted      = '"' { char | "\" any } '"' | "'" { char | "\" any } "'" ;
 *
 * A bare condition is a tag (`published` means `_tags:published`), except a bare *quoted* string holding a
 * colon, which is read as a whole `"attr:value"` filter (Algolia accepts `("county:Maricopa" OR …)`).
 *
 * Differences from Algolia, on purpose: Algolia rejects some shapes (ANDs grouped inside ORs, `NOT (…)` over a
 * group, parentheses around a top-level AND); this parser accepts any boolean combination, which is a superset.
 *
 * Hostile inputs stay cheap: the length is checked before reading anything, and nesting depth (each "(" and
 * each "NOT") and the number of conditions are counted while parsing, so the recursion below is bounded by
 * `maxDepth` and the work by `maxTerms`.
 */
import { createEngineError } from '../errors.ts';
import { Lexer, KEYWORDS, describeToken, type Token } from './lexer.ts';
import { resolveLimits } from './limits.ts';
import { andNode, orNode } from './nodes.ts';
import type { FilterLimits, FilterNode } from './types.ts';

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Parses a number as the filter languages write them; undefined when the text is not one. */
export function parseFilterNumber(text: string): number | undefined {
  if (!NUMBER.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

export function parseFilterString(input: string, limits?: Partial<FilterLimits>): FilterNode {
  if (typeof input !== 'string') throw createEngineError('INVALID_PARAMETER', 'filters', 'expected a string');
  const resolved = resolveLimits(limits);
  if (input.length > resolved.maxLength) {
    throw createEngineError(
      'FILTER_TOO_LARGE',
      `too long (${input.length} characters, the limit is ${resolved.maxLength})`,
    );
  }
  return new Parser(input, resolved).parse();
}

class Parser {
  private readonly lexer: Lexer;
  private depth = 0;
  private terms = 0;

  constructor(
    private readonly input: string,
    private readonly limits: FilterLimits,
  ) {
    this.lexer = new Lexer(input);
  }

  parse(): FilterNode {
    const node = this.parseOr();
    const end = this.lexer.next();
    if (end.type === 'rparen') throw createEngineError('FILTER_SYNTAX', 'Unexpected token ")" without a matching "("', end.start + 1);
    if (end.type !== 'end') throw this.unexpected(end, 'AND, OR or end of input');
    return node;
  }

  private parseOr(): FilterNode {
    const children = [this.parseAnd()];
    while (this.isKeyword(this.lexer.peek(), 'OR')) {
      this.lexer.next();
      children.push(this.parseAnd());
    }
    return orNode(children);
  }

  private parseAnd(): FilterNode {
    const children = [this.parseUnary()];
    while (this.isKeyword(this.lexer.peek(), 'AND')) {
      this.lexer.next();
      children.push(this.parseUnary());
    }
    return andNode(children);
  }

  private parseUnary(): FilterNode {
    const token = this.lexer.peek();
    if (this.isKeyword(token, 'NOT')) {
      this.lexer.next();
      this.enter(token);
      const child = this.parseUnary();
      this.depth--;
      return { kind: 'not', child };
    }
    if (token.type === 'lparen') {
      this.lexer.next();
      this.enter(token);
      const inner = this.parseOr();
      const close = this.lexer.next();
      if (close.type !== 'rparen') throw this.unexpected(close, '")"');
      this.depth--;
      return inner;
    }
    return this.parseCondition();
  }

  private parseCondition(): FilterNode {
    const name = this.lexer.next();
    if (!this.isText(name)) throw this.unexpected(name, 'filter');
    this.terms++;
    if (this.terms > this.limits.maxTerms) {
      throw createEngineError('FILTER_TOO_LARGE', `too many conditions (the limit is ${this.limits.maxTerms})`);
    }
    const after = this.lexer.peek();
    if (after.type === 'colon') {
      this.lexer.next();
      const value = this.lexer.next();
      if (!this.isText(value)) throw this.unexpected(value, 'value');
      if (this.isKeyword(this.lexer.peek(), 'TO')) {
        this.lexer.next();
        const lower = this.expectNumber(value);
        const upper = this.expectNumber(this.lexer.next());
        return { kind: 'range', attribute: name.text, lower, upper };
      }
      return this.withScore(equalityNode(name.text, value.text));
    }
    if (after.type === 'op') {
      this.lexer.next();
      const value = this.expectNumber(this.lexer.next());
      return { kind: 'numeric', attribute: name.text, operator: after.op, value };
    }
    if (name.type === 'quoted') {
      const colon = name.text.indexOf(':');
      if (colon > 0) return equalityNode(name.text.slice(0, colon), name.text.slice(colon + 1));
    }
    return { kind: 'tag', value: name.text };
  }

  /** An optional `<score=N>` after `attr:value` (filter scoring): N an integer from 0 to 65,535, as Algolia's. */
  private withScore(node: FilterNode): FilterNode {
    const open = this.lexer.peek();
    if (open.type !== 'op' || open.op !== '<' || (node.kind !== 'facet' && node.kind !== 'tag')) return node;
    this.lexer.next();
    const keyword = this.lexer.next();
    if (keyword.type !== 'word' || keyword.text !== 'score') throw this.unexpected(keyword, '"score"');
    const equals = this.lexer.next();
    if (equals.type !== 'op' || equals.op !== '=') throw this.unexpected(equals, '"="');
    const scoreToken = this.lexer.next();
    const score = this.expectNumber(scoreToken);
    if (!isFilterScore(score)) throw this.unexpected(scoreToken, 'a score from 0 to 65535');
    const close = this.lexer.next();
    if (close.type !== 'op' || close.op !== '>') throw this.unexpected(close, '">"');
    return { ...node, score };
  }

  private expectNumber(token: Token): number {
    const value = token.type === 'word' && !KEYWORDS.has(token.text) ? parseFilterNumber(token.text) : undefined;
    if (value === undefined) throw this.unexpected(token, 'number');
    return value;
  }

  /** Depth counts "(" and "NOT": both recurse, so this bound is what keeps the stack small. */
  private enter(token: Token): void {
    this.depth++;
    if (this.depth > this.limits.maxDepth) {
      throw createEngineError(
        'FILTER_TOO_LARGE',
        `nested deeper than ${this.limits.maxDepth} levels at col ${token.start + 1}`,
      );
    }
  }

  private isText(token: Token): token is Extract<Token, { type: 'word' | 'quoted' }> {
    return token.type === 'quoted' || (token.type === 'word' && !KEYWORDS.has(token.text));
  }

  private isKeyword(token: Token, keyword: string): boolean {
    return token.type === 'word' && token.text === keyword;
  }

  private unexpected(token: Token, expected: string) {
    return createEngineError('FILTER_SYNTAX', `Unexpected ${describeToken(token, this.input)} expected ${expected}`, token.start + 1);
  }
}

/** Filter scores are integers from 0 to 65,535, as Algolia's. */
export function isFilterScore(score: number): boolean {
  return Number.isInteger(score) && score >= 0 && score <= 65_535;
}

/** `attr:value`: a tag when the attribute is `_tags`, else a facet equality (booleans and objectID included). */
export function equalityNode(attribute: string, value: string): FilterNode {
  return attribute === '_tags' ? { kind: 'tag', value } : { kind: 'facet', attribute, value };
}
