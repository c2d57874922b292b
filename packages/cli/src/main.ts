import type { CliContext } from './context.ts';
import { processContext } from './context.ts';
import { CliError, UsageError } from './errors.ts';
import type { Command } from './commands/command.ts';
import { parseCommandArgs } from './commands/command.ts';
import { backupCommand } from './commands/backup.ts';
import { demoCommand } from './commands/demo.ts';
import { exportCommand } from './commands/export.ts';
import { importCommand } from './commands/import.ts';
import { serveCommand, startCommand } from './commands/serve.ts';
import { syncCommand } from './commands/sync.ts';

export const commands: readonly Command[] = [startCommand, serveCommand, importCommand, exportCommand, syncCommand, backupCommand, demoCommand];

export function mainHelp(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return `Usage: vitrine <command> [options]

Vitrine: a storefront with instant search, served by an Algolia-compatible search server.

Commands:
${commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`).join('\n')}

Run "vitrine <command> --help" for a command's options and settings.
`;
}

/**
 * Runs one command line and returns the exit code: 0 success, 1 failure, 2 usage mistake. With no context
 * given it uses the process's (environment, streams) and stops on SIGINT / SIGTERM.
 */
export async function main(argv: string[], context?: CliContext): Promise<number> {
  let ctx = context;
  let detach = () => {};
  if (!ctx) {
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    detach = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    };
    ctx = processContext(controller.signal);
  }
  try {
    const [name, ...rest] = argv;
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      ctx.stdout.write(mainHelp());
      return name === undefined ? 2 : 0;
    }
    const command = commands.find((candidate) => candidate.name === name);
    if (!command) throw new UsageError(`Unknown command "${name}"`);
    const { help, values, positionals } = parseCommandArgs(command, rest);
    if (help) {
      ctx.stdout.write(command.help + '\n');
      return 0;
    }
    await command.run(values, positionals, ctx);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      ctx.stderr.write(`Error: ${error.message}\nRun "vitrine --help" for usage.\n`);
      return error.exitCode;
    }
    if (error instanceof CliError) {
      ctx.stderr.write(`Error: ${error.message}\n`);
      return error.exitCode;
    }
    ctx.stderr.write(`Unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  } finally {
    detach();
  }
}
