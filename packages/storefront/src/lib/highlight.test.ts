import { describe, expect, it } from 'vitest';
import { highlightPostTag as post, highlightPreTag as pre, splitHighlight } from './highlight.ts';

describe('splitHighlight', () => {
  it('splits on the tags and merges neighbours of one kind', () => {
    expect(splitHighlight(`${pre}floor${post} ${pre}lam${post}p`)).toEqual([
      { value: 'floor', highlighted: true },
      { value: ' ', highlighted: false },
      { value: 'lam', highlighted: true },
      { value: 'p', highlighted: false },
    ]);
    expect(splitHighlight(`${pre}a${post}${pre}b${post}`)).toEqual([{ value: 'ab', highlighted: true }]);
  });

  it('keeps markup and unmatched tags as plain text', () => {
    expect(splitHighlight('<b>lamp</b>')).toEqual([{ value: '<b>lamp</b>', highlighted: false }]);
    expect(splitHighlight(`${pre}open`)).toEqual([{ value: `${pre}open`, highlighted: false }]);
    expect(splitHighlight('')).toEqual([]);
  });
});
