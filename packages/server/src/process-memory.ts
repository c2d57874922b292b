/**
 * How the server process uses memory: glibc's allocator settings (which must be in the environment when the
 * process starts, so the `vitrine` command starts the server again with them: `cli/src/launch.ts`) and V8's
 * heap growth (set by `startServer`, for every thread of the process).
 *
 * - **Huge pages** for the large buffers, on Linux. A server at a million products fills gigabytes of fresh
 *   memory on every start (a 1.1 GB snapshot read, then arrays grown by the log's replay), and on this kind of
 *   machine the kernel's 4 KB page faults, not the copying, were the cost: 2 MB pages made them ten to forty times
 *   faster (docs/PERFORMANCE.md, *Figures behind the code*). Most Linux distributions enable them only for
 *   memory that asks (`madvise` mode), which Node's buffers never do; glibc asks for every large allocation with
 *   `glibc.malloc.hugetlb=1` (glibc ≥ 2.35).
 * - **A fixed mmap threshold** (128 KB, glibc's initial one). glibc raises the threshold to the size of every
 *   mapped block freed (up to 32 MB): after an import's first 600 KB request bodies and postings buffers are
 *   freed, the next ones come from the threads' heaps, whose freed holes stay resident. Fixed, a large block is
 *   mapped on its own and given back whole when freed.
 * - **Heap growth of 30%** (`--heap-growing-percent`, `VITRINE_HEAP_GROWTH`) rather than V8's up to 300% on a
 *   machine with gigabytes: between two full collections a thread's heap grows to 1.3 times what the last one
 *   kept, not 4 times. The main thread keeps little live while an import sends it bodies to parse and log
 *   several times a second, so most of its heap between collections was garbage; search throughput did not
 *   change with the setting.
 *
 * - **V8's background threads sized to the machine** (`--v8-pool-size=0`, in `NODE_OPTIONS`): Node starts four
 *   whatever the cores, and on a two-core machine their parallel scavenges and concurrent marking took the core
 *   of the thread answering a search: with V8's choice (one here) the engine benchmark's p99 is about 40%
 *   lower, its p50 the same (docs/PERFORMANCE.md). A pool size already in `NODE_OPTIONS` is left as given.
 *
 * Rejected: a native addon calling madvise (a compiler on every machine, for one call); `always` mode (a
 * system setting, not ours to change); `--max-old-space-size` for the same growth (a hard limit as well, the
 * process ending when a thread's live heap passes it); `MALLOC_ARENA_MAX` (fewer arenas, the same holes).
 */
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

/** The glibc tunable (glibc ≥ 2.35) that makes malloc ask for transparent huge pages. */
export const HUGE_PAGES_TUNABLE = 'glibc.malloc.hugetlb=1';
/** The glibc tunable that fixes the mmap threshold at glibc's initial 128 KB. */
export const MMAP_THRESHOLD_TUNABLE = 'glibc.malloc.mmap_threshold=131072';
/** Heap growth between full collections, in percent of what the last one kept (V8's `--heap-growing-percent`). */
export const HEAP_GROWING_PERCENT = 30;

/** Node's flag for V8's background threads: 0 lets V8 size the pool to the machine's cores. */
export const V8_POOL_FLAG = '--v8-pool-size=0';

/** What decides the allocator settings: the environment, the platform, glibc's version and the kernel's THP mode. */
export interface ProcessHost {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** glibc's version at run time ("2.36"), undefined without glibc (musl, other systems). */
  glibcVersion: string | undefined;
  /** /sys/kernel/mm/transparent_hugepage/enabled ("always [madvise] never"), undefined when unreadable. */
  transparentHugePages: string | undefined;
}

export function currentHost(): ProcessHost {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  let transparentHugePages: string | undefined;
  try {
    transparentHugePages = readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8');
  } catch {
    transparentHugePages = undefined;
  }
  return { env: process.env, platform: process.platform, glibcVersion: header?.glibcVersionRuntime, transparentHugePages };
}

/** Whether malloc should ask for huge pages: Linux, glibc 2.35+, the kernel giving them on request, not turned off. */
function wantsHugePages(host: ProcessHost, major: number, minor: number): boolean {
  if (host.env.VITRINE_HUGE_PAGES === 'off') return false;
  if (!/\[madvise\]/.test(host.transparentHugePages ?? '')) return false;
  return major > 2 || (major === 2 && minor >= 35);
}

/**
 * The environment to start a server process with, for the settings above, or null when there is nothing to
 * add: not Linux with glibc, or every setting already there (a tunable in `GLIBC_TUNABLES` or a pool size in
 * `NODE_OPTIONS`, whatever its value, is left as given). Huge pages are left out where they would do nothing
 * (the kernel's off or gives them to every allocation, glibc before 2.35) and with `VITRINE_HUGE_PAGES=off`.
 */
export function serverProcessEnv(host: ProcessHost = currentHost()): NodeJS.ProcessEnv | null {
  const { env } = host;
  if (host.platform !== 'linux' || host.glibcVersion === undefined) return null;
  const [major, minor] = host.glibcVersion.split('.').map(Number);
  const tunables = env.GLIBC_TUNABLES ?? '';
  const wanted = [MMAP_THRESHOLD_TUNABLE, ...(wantsHugePages(host, major, minor) ? [HUGE_PAGES_TUNABLE] : [])];
  const added = wanted.filter((tunable) => !tunables.includes(tunable.split('=')[0]));
  const nodeOptions = env.NODE_OPTIONS ?? '';
  const addPool = !nodeOptions.includes('--v8-pool-size');
  if (added.length === 0 && !addPool) return null;
  const result: NodeJS.ProcessEnv = { ...env };
  if (added.length > 0) result.GLIBC_TUNABLES = [...(tunables === '' ? [] : [tunables]), ...added].join(':');
  if (addPool) result.NODE_OPTIONS = nodeOptions === '' ? V8_POOL_FLAG : `${nodeOptions} ${V8_POOL_FLAG}`;
  return result;
}

/**
 * The heap growth to set, in percent: `VITRINE_HEAP_GROWTH` (a whole number from 1 to 300), the default when
 * unset, or null for `default` (V8's own). Anything else is refused: a typo must not pass for a setting.
 */
export function heapGrowthPercent(env: NodeJS.ProcessEnv = process.env): number | null {
  const value = env.VITRINE_HEAP_GROWTH?.trim();
  if (value === undefined || value === '') return HEAP_GROWING_PERCENT;
  if (value === 'default') return null;
  const percent = Number(value);
  if (!Number.isInteger(percent) || percent < 1 || percent > 300) throw new Error(`VITRINE_HEAP_GROWTH must be a whole number of percent from 1 to 300, or "default" (got "${value}")`);
  return percent;
}

/** Sets V8's heap growth for every thread of this process, threads started later included (see above). */
export function limitHeapGrowth(env: NodeJS.ProcessEnv = process.env): void {
  const percent = heapGrowthPercent(env);
  if (percent !== null) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
