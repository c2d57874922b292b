/**
 * What a command needs from the outside world, passed in rather than read from globals so that tests can run
 * commands in-process with their own environment, working folder and captured output.
 */
export interface OutputStream {
  write(chunk: string): unknown;
  /** True on an interactive terminal: progress bars redraw in place there, and print plain lines elsewhere. */
  isTTY?: boolean;
}

export interface CliContext {
  env: Record<string, string | undefined>;
  cwd: string;
  stdout: OutputStream;
  stderr: OutputStream;
  /** Aborted when the user asks to stop (SIGINT, SIGTERM); long-running commands close cleanly then return. */
  signal: AbortSignal;
}

export function processContext(signal: AbortSignal): CliContext {
  return { env: process.env, cwd: process.cwd(), stdout: process.stdout, stderr: process.stderr, signal };
}

/** Resolves when the signal is aborted (at once if it already is). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
