import { describe, expect, it } from 'vitest';
import { inertJson } from './page-state.ts';

describe('inertJson', () => {
  it('leaves no character that could end a script element or open a comment, and parses back unchanged', () => {
    const value = { name: '</script><script>alert(1)</script>', note: '<!-- x -->', amp: 'a & b', line: 'a\u2028b' };
    const text = inertJson(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});
