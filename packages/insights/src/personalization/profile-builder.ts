/**
 * Runs a profile build pass in a thread of its own (`profile-thread.ts`), started for the pass and ended with
 * it: reading every aggregate of the window takes seconds at a million events, which the main thread must not
 * spend, and the heap it grows is given back at once. A pass that fails (a crash, the heap cap) fails that
 * build only; the profiles of the last build stay.
 */
import { Worker } from 'node:worker_threads';
import type { ProfileBuildReply, ProfileBuildRequest } from './derive.ts';

/** The thread's module: compiled, or, running from the sources, a shim that registers the TypeScript loader first. */
const ENTRY = import.meta.url.endsWith('.ts') ? new URL('./profile-thread-entry.mjs', import.meta.url) : new URL('./profile-thread.js', import.meta.url);
const HEAP_MB = 1024;

export class ProfileBuilder {
  private running: Worker | null = null;
  private stopped = false;

  constructor(private readonly files: { modelsFile: string; profilesFile: string }) {}

  pass(request: ProfileBuildRequest): Promise<ProfileBuildReply> {
    if (this.stopped) return Promise.reject(new Error('insights are closed'));
    const worker = new Worker(ENTRY, { workerData: { ...this.files, request }, resourceLimits: { maxOldGenerationSizeMb: HEAP_MB } });
    this.running = worker;
    return new Promise<ProfileBuildReply>((resolve, reject) => {
      worker.once('message', (reply: ProfileBuildReply | { error: string }) => {
        if ('error' in reply) reject(new Error(`profile build failed: ${reply.error}`));
        else resolve(reply);
      });
      worker.once('error', reject);
      // After the reply this changes nothing (a promise settles once).
      worker.once('exit', (code) => {
        if (this.running === worker) this.running = null;
        reject(new Error(`the profile thread exited with code ${code}`));
      });
    });
  }

  /** Ends a pass under way (it fails); later passes are refused. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running?.terminate();
  }
}
