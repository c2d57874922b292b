import { describe, expect, it } from 'vitest';
import { codePrefix, modelName, modelNumber } from './models.ts';

describe('model designations', () => {
  it('give each of a brand\'s first 30,000 models its own number and name, whatever the brand', () => {
    for (const offset of [0, 131, 7 * 239, 31_309]) {
      const numbers = new Set<number>();
      const names = new Set<string>();
      for (let n = 0; n < 30_000; n++) {
        numbers.add(modelNumber(n, offset));
        names.add(modelName(n, offset));
      }
      expect(numbers.size).toBe(30_000);
      expect(names.size).toBe(30_000);
    }
  });

  it('read like model codes and names', () => {
    expect(String(modelNumber(0, 0))).toMatch(/^\d{3}$/);
    expect(String(modelNumber(5000, 0))).toMatch(/^\d{4}$/);
    expect(modelName(0, 0)).toMatch(/^[A-Z][a-z]+$/);
    expect(modelName(200, 0)).toMatch(/^[A-Z][a-z]+ \d+$/);
    expect(codePrefix('Circular Saw')).toBe('CS');
    expect(codePrefix('Drill')).toBe('DR');
  });
});
