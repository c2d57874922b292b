import { describe, expect, it } from 'vitest';
import { relaxedQueries } from './relax-query.ts';

describe('relaxedQueries', () => {
  it('drops one word at a time, the last first', () => {
    expect(relaxedQueries('laptop bag')).toEqual(['laptop', 'bag']);
    expect(relaxedQueries(' red  floor lamp ')).toEqual(['red floor', 'red lamp', 'floor lamp']);
  });

  it('offers nothing for one word, skips repeats, and stops at the limit', () => {
    expect(relaxedQueries('lamp')).toEqual([]);
    expect(relaxedQueries('')).toEqual([]);
    expect(relaxedQueries('lamp lamp')).toEqual(['lamp']);
    expect(relaxedQueries('a b c d e f', 2)).toEqual(['a b c d e', 'a b c d f']);
  });
});
