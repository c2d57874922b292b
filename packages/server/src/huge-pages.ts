/**
 * Huge pages for the server's large buffers, on Linux.
 *
 * A server at a million products fills gigabytes of fresh memory on every start (a 1.1 GB snapshot read, then
 * arrays grown by the log's replay), and on this kind of machine the kernel's 4 KB page faults, not the copying,
 * were the cost: filling 500 MB of fresh typed array took 1.5–2.1 s, reading the 1.1 GB snapshot 4.3 s. With
 * transparent huge pages (2 MB) the same took 40 ms and 0.44 s (docs/PERFORMANCE.md, crash recovery). Most
 * Linux distributions enable them only for memory that asks (`madvise` mode), which Node's buffers never do;
 * glibc asks for every large allocation when started with the tunable below. It has to be in the environment
 * when the process starts, so the `vitrine` command starts the server again with it (`cli/src/launch.ts`).
 *
 * Rejected: a native addon calling madvise (a compiler on every machine, for one call); `always` mode
 * (a system setting, not ours to change).
 */
import { readFileSync } from 'node:fs';

/** The glibc tunable (glibc ≥ 2.35) that makes malloc ask for transparent huge pages. */
export const HUGE_PAGES_TUNABLE = 'glibc.malloc.hugetlb=1';

/** What decides whether to ask: the environment, the platform, glibc's version and the kernel's THP mode. */
export interface HugePagesHost {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** glibc's version at run time ("2.36"), undefined without glibc (musl, other systems). */
  glibcVersion: string | undefined;
  /** /sys/kernel/mm/transparent_hugepage/enabled ("always [madvise] never"), undefined when unreadable. */
  transparentHugePages: string | undefined;
}

export function currentHost(): HugePagesHost {
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  let transparentHugePages: string | undefined;
  try {
    transparentHugePages = readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8');
  } catch {
    transparentHugePages = undefined;
  }
  return { env: process.env, platform: process.platform, glibcVersion: header?.glibcVersionRuntime, transparentHugePages };
}

/**
 * The environment to start a server process with for huge pages, or null when there is nothing to add: not
 * Linux with glibc 2.35 or later, the kernel's huge pages off (`never`) or given to every allocation already
 * (`always`), the tunable already set, or turned off with `VITRINE_HUGE_PAGES=off`.
 */
export function hugePagesEnv(host: HugePagesHost = currentHost()): NodeJS.ProcessEnv | null {
  const { env } = host;
  if (host.platform !== 'linux' || env.VITRINE_HUGE_PAGES === 'off') return null;
  if (!/\[madvise\]/.test(host.transparentHugePages ?? '')) return null;
  const [major, minor] = (host.glibcVersion ?? '').split('.').map(Number);
  if (!(major > 2 || (major === 2 && minor >= 35))) return null;
  const tunables = env.GLIBC_TUNABLES ?? '';
  if (tunables.includes('glibc.malloc.hugetlb')) return null;
  return { ...env, GLIBC_TUNABLES: tunables === '' ? HUGE_PAGES_TUNABLE : `${tunables}:${HUGE_PAGES_TUNABLE}` };
}
