/**
 * Properties tested:
 * - every construct of the grammar parses to the expected tree (operators, quoting, escapes, ranges, tags);
 * - operator precedence (AND over OR) and flattening of nested groups of the same kind;
 * - syntax errors are `EngineError`s with code FILTER_SYNTAX and an exact, positioned message;
 * - parser bombs (deep nesting, many terms, huge inputs) are rejected with FILTER_TOO_LARGE, never a stack overflow.
 */
import { describe, expect, it } from 'vitest';
import { EngineError } from '../errors.ts';
import { parseFilterString } from './index.ts';

function errorOf(run: () => unknown): EngineError {
  try {
    run();
  } catch (error) {
    if (error instanceof EngineError) return error;
    throw error;
  }
  throw new Error('expected an EngineError');
}

describe('parseFilterString: conditions', () => {
  it('reads facet, tag, boolean and objectID equalities', () => {
    expect(parseFilterString('category:Book')).toEqual({ kind: 'facet', attribute: 'category', value: 'Book' });
    expect(parseFilterString('_tags:published')).toEqual({ kind: 'tag', value: 'published' });
    expect(parseFilterString('published')).toEqual({ kind: 'tag', value: 'published' });
    expect(parseFilterString('free_shipping:true')).toEqual({ kind: 'facet', attribute: 'free_shipping', value: 'true' });
    expect(parseFilterString('objectID:abc-123')).toEqual({ kind: 'facet', attribute: 'objectID', value: 'abc-123' });
  });

  it('reads quoted values and attribute names with escapes, in both quote styles', () => {
    expect(parseFilterString('author:"Stephen King"')).toEqual({ kind: 'facet', attribute: 'author', value: 'Stephen King' });
    expect(parseFilterString('"brand name":\'Dr. Martens\'')).toEqual({ kind: 'facet', attribute: 'brand name', value: 'Dr. Martens' });
    expect(parseFilterString('title:"say \\"hi\\" \\\\ bye"')).toEqual({ kind: 'facet', attribute: 'title', value: 'say "hi" \\ bye' });
    expect(parseFilterString("name:'O\\'Neil'")).toEqual({ kind: 'facet', attribute: 'name', value: "O'Neil" });
    expect(parseFilterString('cat:"AND"')).toEqual({ kind: 'facet', attribute: 'cat', value: 'AND' });
    // Quotes are ordinary characters inside an unquoted word.
    expect(parseFilterString("name:O'Neil")).toEqual({ kind: 'facet', attribute: 'name', value: "O'Neil" });
  });

  it('reads a bare quoted "attr:value" as a facet filter', () => {
    expect(parseFilterString('("county:Maricopa" OR "county:Pima")')).toEqual({
      kind: 'or',
      children: [
        { kind: 'facet', attribute: 'county', value: 'Maricopa' },
        { kind: 'facet', attribute: 'county', value: 'Pima' },
      ],
    });
    expect(parseFilterString('"two words"')).toEqual({ kind: 'tag', value: 'two words' });
  });

  it('reads every comparison operator, with or without spaces, negative and decimal numbers', () => {
    const ops = ['<', '<=', '=', '!=', '>=', '>'] as const;
    for (const op of ops) {
      const expected = { kind: 'numeric', attribute: 'price', operator: op, value: -12.5 };
      expect(parseFilterString(`price ${op} -12.5`)).toEqual(expected);
      expect(parseFilterString(`price${op}-12.5`)).toEqual(expected);
    }
    expect(parseFilterString('score >= .5')).toEqual({ kind: 'numeric', attribute: 'score', operator: '>=', value: 0.5 });
    expect(parseFilterString('date > 1e3')).toEqual({ kind: 'numeric', attribute: 'date', operator: '>', value: 1000 });
  });

  it('reads inclusive ranges, negative bounds included', () => {
    expect(parseFilterString('price:5.99 TO 100')).toEqual({ kind: 'range', attribute: 'price', lower: 5.99, upper: 100 });
    expect(parseFilterString('t: -10 TO -1')).toEqual({ kind: 'range', attribute: 't', lower: -10, upper: -1 });
    // Without TO, a number after a colon is a facet value (it matches string or numeric values equal to it).
    expect(parseFilterString('count:-12')).toEqual({ kind: 'facet', attribute: 'count', value: '-12' });
  });
});

describe('parseFilterString: filter scores', () => {
  it('reads <score=N> after a facet or tag equality, spaced or not', () => {
    expect(parseFilterString('(company:Google<score=3> OR company:Amazon < score = 2 > OR _tags:x<score=0>)')).toEqual({
      kind: 'or',
      children: [
        { kind: 'facet', attribute: 'company', value: 'Google', score: 3 },
        { kind: 'facet', attribute: 'company', value: 'Amazon', score: 2 },
        { kind: 'tag', value: 'x', score: 0 },
      ],
    });
  });
});

describe('parseFilterString: boolean structure', () => {
  it('binds AND tighter than OR and flattens same-kind groups', () => {
    expect(parseFilterString('a:1 OR b:2 AND c:3')).toEqual({
      kind: 'or',
      children: [
        { kind: 'facet', attribute: 'a', value: '1' },
        { kind: 'and', children: [{ kind: 'facet', attribute: 'b', value: '2' }, { kind: 'facet', attribute: 'c', value: '3' }] },
      ],
    });
    expect(parseFilterString('a:1 AND (b:2 AND (c:3))')).toEqual({
      kind: 'and',
      children: [
        { kind: 'facet', attribute: 'a', value: '1' },
        { kind: 'facet', attribute: 'b', value: '2' },
        { kind: 'facet', attribute: 'c', value: '3' },
      ],
    });
  });

  it('negates conditions and groups (a superset of what Algolia accepts)', () => {
    expect(parseFilterString('NOT _tags:x')).toEqual({ kind: 'not', child: { kind: 'tag', value: 'x' } });
    expect(parseFilterString('NOT (a:1 OR price < 3)')).toEqual({
      kind: 'not',
      child: { kind: 'or', children: [{ kind: 'facet', attribute: 'a', value: '1' }, { kind: 'numeric', attribute: 'price', operator: '<', value: 3 }] },
    });
    expect(parseFilterString('NOT NOT a:1')).toEqual({ kind: 'not', child: { kind: 'not', child: { kind: 'facet', attribute: 'a', value: '1' } } });
  });

  it('treats keywords case-sensitively: lowercase "and" is not an operator', () => {
    expect(errorOf(() => parseFilterString('a:1 and b:2')).message).toBe(
      'filters: Unexpected token "and" expected AND, OR or end of input at col 5',
    );
  });
});

describe('parseFilterString: positioned errors', () => {
  const cases: Array<[string, string]> = [
    ['(brand:Apple OR )', 'filters: Unexpected token ")" expected filter at col 17'],
    ['brand:Apple AND', 'filters: Unexpected end of input expected filter at col 16'],
    ['', 'filters: Unexpected end of input expected filter at col 1'],
    ['brand:', 'filters: Unexpected end of input expected value at col 7'],
    ['brand:AND', 'filters: Unexpected token "AND" expected value at col 7'],
    ['(a:1 OR b:2', 'filters: Unexpected end of input expected ")" at col 12'],
    ['a:1)', 'filters: Unexpected token ")" without a matching "(" at col 4'],
    ['a:1 b:2', 'filters: Unexpected token "b" expected AND, OR or end of input at col 5'],
    // An unquoted value of several words: a 400 on Algolia too ("Unexpected token string(Corp) expected end of filter").
    ['brand:Acme Corp', 'filters: Unexpected token "Corp" expected AND, OR or end of input at col 12'],
    ['price > cheap', 'filters: Unexpected token "cheap" expected number at col 9'],
    ['price > "3"', 'filters: Unexpected token "3" expected number at col 9'],
    ['price:1 TO', 'filters: Unexpected end of input expected number at col 11'],
    ['price:low TO 3', 'filters: Unexpected token "low" expected number at col 7'],
    ['title:"open', 'filters: Unterminated quoted string at col 7'],
    ['NOT', 'filters: Unexpected end of input expected filter at col 4'],
    ['OR a:1', 'filters: Unexpected token "OR" expected filter at col 1'],
    ['price >', 'filters: Unexpected end of input expected number at col 8'],
    ['a::b', 'filters: Unexpected token ":" expected value at col 3'],
    ['price < 1e999', 'filters: Unexpected token "1e999" expected number at col 9'],
    ['a:b<rank=3>', 'filters: Unexpected token "rank" expected "score" at col 5'],
    ['a:b<score=3', 'filters: Unexpected end of input expected ">" at col 12'],
    ['a:b<score=1.5>', 'filters: Unexpected token "1.5" expected a score from 0 to 65535 at col 11'],
    ['a:b<score=65536>', 'filters: Unexpected token "65536" expected a score from 0 to 65535 at col 11'],
    ['price<score=3>', 'filters: Unexpected token "score" expected number at col 7'],
  ];
  it.each(cases)('%j → %s', (input, message) => {
    const error = errorOf(() => parseFilterString(input));
    expect(error.code).toBe('FILTER_SYNTAX');
    expect(error.message).toBe(message);
  });

  it('rejects a non-string with INVALID_PARAMETER', () => {
    expect(errorOf(() => parseFilterString(42 as unknown as string)).code).toBe('INVALID_PARAMETER');
  });
});

describe('parseFilterString: limits against hostile input', () => {
  // Each of these would take seconds or overflow the stack without the limits; the assertion is that a
  // FILTER_TOO_LARGE error comes back (the suite's own timeout is the time bound).
  it('rejects 100,000 nested parentheses at the depth limit', () => {
    const bomb = `${'('.repeat(100_000)}a:1${')'.repeat(100_000)}`;
    expect(errorOf(() => parseFilterString(bomb, { maxLength: Infinity })).message).toBe(
      'filters: nested deeper than 64 levels at col 65',
    );
    expect(errorOf(() => parseFilterString(bomb)).message).toBe('filters: too long (200003 characters, the limit is 20000)');
  });

  it('rejects 100,000 chained NOTs at the depth limit', () => {
    const bomb = `${'NOT '.repeat(100_000)}a:1`;
    expect(errorOf(() => parseFilterString(bomb, { maxLength: Infinity })).code).toBe('FILTER_TOO_LARGE');
  });

  it('rejects 10,000 OR terms at the term limit', () => {
    const bomb = Array.from({ length: 10_000 }, (_, i) => `brand:b${i}`).join(' OR ');
    const error = errorOf(() => parseFilterString(bomb, { maxLength: Infinity }));
    expect(error.code).toBe('FILTER_TOO_LARGE');
    expect(error.message).toBe('filters: too many conditions (the limit is 1000)');
    expect(errorOf(() => parseFilterString(bomb)).code).toBe('FILTER_TOO_LARGE');
  });

  it('rejects a 1 MB filter before reading it', () => {
    const bomb = `a:${'x'.repeat(1_000_000)}`;
    expect(errorOf(() => parseFilterString(bomb)).message).toBe('filters: too long (1000002 characters, the limit is 20000)');
  });

  it('accepts input right at the limits', () => {
    const deep = `${'('.repeat(64)}a:1${')'.repeat(64)}`;
    expect(parseFilterString(deep)).toEqual({ kind: 'facet', attribute: 'a', value: '1' });
    const wide = Array.from({ length: 1000 }, (_, i) => `b:${i}`).join(' OR ');
    const node = parseFilterString(wide);
    expect(node.kind === 'or' && node.children.length).toBe(1000);
  });
});
