/**
 * A small seeded pseudo-random generator (mulberry32): 32 bits of state, fast, and identical on every platform,
 * which is what "same seed, same catalogue, byte for byte" needs. Not for anything security related.
 */
export interface Random {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** One element of a non-empty list, uniformly. */
  pick<T>(items: readonly T[]): T;
}

export function createRandom(seed: number): Random {
  // `>>> 0` keeps any number (negative, fractional, large) as a valid 32-bit state.
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (items) => items[Math.floor(next() * items.length)],
  };
}
