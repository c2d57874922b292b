import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, HUGE_PAGES_TUNABLE, MMAP_THRESHOLD_TUNABLE, V8_POOL_FLAG, heapGrowthPercent, serverProcessEnv } from './process-memory.ts';
import type { ProcessHost } from './process-memory.ts';

const linux: ProcessHost = { env: { PATH: '/bin' }, platform: 'linux', glibcVersion: '2.36', transparentHugePages: 'always [madvise] never\n' };
const both = `${MMAP_THRESHOLD_TUNABLE}:${HUGE_PAGES_TUNABLE}`;

describe('serverProcessEnv', () => {
  it('fixes the mmap threshold and asks for huge pages on Linux with glibc 2.35+ and huge pages on request, keeping the rest', () => {
    expect(serverProcessEnv(linux)).toEqual({ PATH: '/bin', GLIBC_TUNABLES: both, NODE_OPTIONS: V8_POOL_FLAG });
    expect(serverProcessEnv({ ...linux, glibcVersion: '2.35' })?.GLIBC_TUNABLES).toBe(both);
    expect(serverProcessEnv({ ...linux, glibcVersion: '3.0' })?.GLIBC_TUNABLES).toBe(both);
    // Tunables already set are kept, the new ones appended.
    expect(serverProcessEnv({ ...linux, env: { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' } })?.GLIBC_TUNABLES).toBe(`glibc.malloc.arena_max=2:${both}`);
  });

  it('asks for no huge pages where they would do nothing or were turned off, the threshold still fixed', () => {
    for (const host of [
      { ...linux, glibcVersion: '2.31' }, // no such tunable yet
      { ...linux, transparentHugePages: '[always] madvise never' }, // every allocation has them
      { ...linux, transparentHugePages: 'always madvise [never]' },
      { ...linux, transparentHugePages: undefined },
      { ...linux, env: { VITRINE_HUGE_PAGES: 'off' } },
    ]) {
      expect(serverProcessEnv(host)?.GLIBC_TUNABLES).toBe(MMAP_THRESHOLD_TUNABLE);
    }
  });

  it('leaves a setting given in GLIBC_TUNABLES as given, and adds nothing without glibc on Linux', () => {
    expect(serverProcessEnv({ ...linux, env: { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' } })?.GLIBC_TUNABLES).toBe(`glibc.malloc.hugetlb=0:${MMAP_THRESHOLD_TUNABLE}`);
    const allGiven = `glibc.malloc.mmap_threshold=1048576:${HUGE_PAGES_TUNABLE}`;
    expect(serverProcessEnv({ ...linux, env: { GLIBC_TUNABLES: allGiven, NODE_OPTIONS: '--v8-pool-size=2' } })).toBeNull();
    // Only the pool size to add: the tunables as given.
    expect(serverProcessEnv({ ...linux, env: { GLIBC_TUNABLES: allGiven } })).toEqual({ GLIBC_TUNABLES: allGiven, NODE_OPTIONS: V8_POOL_FLAG });
    expect(serverProcessEnv({ ...linux, platform: 'darwin' })).toBeNull();
    expect(serverProcessEnv({ ...linux, glibcVersion: undefined })).toBeNull(); // musl
  });
});

describe('the V8 pool size', () => {
  it('is added to NODE_OPTIONS, after what is there, unless a pool size is given', () => {
    expect(serverProcessEnv({ ...linux, env: { NODE_OPTIONS: '--max-old-space-size=4096' } })?.NODE_OPTIONS).toBe(`--max-old-space-size=4096 ${V8_POOL_FLAG}`);
    expect(serverProcessEnv({ ...linux, env: { NODE_OPTIONS: '--v8-pool-size=3' } })?.NODE_OPTIONS).toBe('--v8-pool-size=3');
  });
});

describe('heapGrowthPercent', () => {
  it('is 30% unless set, a whole number of percent when set, and V8\'s own for "default"', () => {
    expect(heapGrowthPercent({})).toBe(HEAP_GROWING_PERCENT);
    expect(heapGrowthPercent({ VITRINE_HEAP_GROWTH: '100' })).toBe(100);
    expect(heapGrowthPercent({ VITRINE_HEAP_GROWTH: 'default' })).toBeNull();
  });

  it('refuses anything else, naming the variable', () => {
    for (const value of ['0', '301', '1.5', 'sixty', '60%']) expect(() => heapGrowthPercent({ VITRINE_HEAP_GROWTH: value })).toThrow(/VITRINE_HEAP_GROWTH/);
  });
});
