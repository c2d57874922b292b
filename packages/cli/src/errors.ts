/**
 * Errors the command reports without a stack trace. `UsageError` is a mistake in the command line (exit code 2,
 * with a pointer to the help); `CliError` is anything else the user can fix (a missing file, a server that
 * refused a request; exit code 1). Anything else escaping a command is a bug and is printed with its stack.
 */
export class CliError extends Error {
  readonly exitCode: number = 1;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'CliError';
  }
}

export class UsageError extends CliError {
  override readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** An error answered by an Algolia-compatible API (the official client's `ApiError` carries `status`). */
export function apiStatus(error: unknown): number | undefined {
  if (error instanceof Error && typeof (error as { status?: unknown }).status === 'number') {
    return (error as unknown as { status: number }).status;
  }
  return undefined;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
