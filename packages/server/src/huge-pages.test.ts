import { describe, expect, it } from 'vitest';
import { HUGE_PAGES_TUNABLE, hugePagesEnv } from './huge-pages.ts';
import type { HugePagesHost } from './huge-pages.ts';

const linux: HugePagesHost = { env: { PATH: '/bin' }, platform: 'linux', glibcVersion: '2.36', transparentHugePages: 'always [madvise] never\n' };

describe('hugePagesEnv', () => {
  it('adds the tunable on Linux with glibc 2.35+ and huge pages given on request, keeping the rest', () => {
    expect(hugePagesEnv(linux)).toEqual({ PATH: '/bin', GLIBC_TUNABLES: HUGE_PAGES_TUNABLE });
    expect(hugePagesEnv({ ...linux, glibcVersion: '2.35' })?.GLIBC_TUNABLES).toBe(HUGE_PAGES_TUNABLE);
    expect(hugePagesEnv({ ...linux, glibcVersion: '3.0' })?.GLIBC_TUNABLES).toBe(HUGE_PAGES_TUNABLE);
    // Tunables already set are kept, the new one appended.
    expect(hugePagesEnv({ ...linux, env: { GLIBC_TUNABLES: 'glibc.malloc.arena_max=2' } })?.GLIBC_TUNABLES).toBe(`glibc.malloc.arena_max=2:${HUGE_PAGES_TUNABLE}`);
  });

  it('adds nothing where it would do nothing or was decided otherwise', () => {
    expect(hugePagesEnv({ ...linux, platform: 'darwin' })).toBeNull();
    expect(hugePagesEnv({ ...linux, glibcVersion: undefined })).toBeNull(); // musl
    expect(hugePagesEnv({ ...linux, glibcVersion: '2.31' })).toBeNull(); // no such tunable yet
    expect(hugePagesEnv({ ...linux, transparentHugePages: '[always] madvise never' })).toBeNull(); // every allocation has them
    expect(hugePagesEnv({ ...linux, transparentHugePages: 'always madvise [never]' })).toBeNull();
    expect(hugePagesEnv({ ...linux, transparentHugePages: undefined })).toBeNull();
    expect(hugePagesEnv({ ...linux, env: { VITRINE_HUGE_PAGES: 'off' } })).toBeNull();
    expect(hugePagesEnv({ ...linux, env: { GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' } })).toBeNull();
  });
});
