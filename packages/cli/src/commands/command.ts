import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import type { CliContext } from '../context.ts';
import { UsageError } from '../errors.ts';

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;
export type OptionValues = Record<string, string | string[] | boolean | undefined>;

/** One `vitrine <name>` command: its help text, its options, and what it does. */
export interface Command {
  name: string;
  /** One line, shown in `vitrine --help`. */
  summary: string;
  /** Full help, shown by `vitrine <name> --help`. */
  help: string;
  options: OptionSpecs;
  /** How many positional arguments the command takes. */
  positionals: { min: number; max: number };
  run(values: OptionValues, positionals: string[], ctx: CliContext): Promise<void>;
}

/** Parses a command's arguments strictly: unknown options and missing values are usage errors, not guesses. */
export function parseCommandArgs(
  command: Command,
  args: string[],
): { help: boolean; values: OptionValues; positionals: string[] } {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0]);
  }
  const values = parsed.values as OptionValues;
  if (values.help) return { help: true, values, positionals: parsed.positionals };
  const { min, max } = command.positionals;
  const count = parsed.positionals.length;
  if (count < min) throw new UsageError(`vitrine ${command.name}: missing argument`);
  if (count > max) throw new UsageError(`vitrine ${command.name}: unexpected argument "${parsed.positionals[max]}"`);
  return { help: false, values, positionals: parsed.positionals };
}

/** A positive (or, with `allowZero`, non-negative) integer option, or its default. */
export function integerOption(values: OptionValues, name: string, fallback: number, { allowZero = false } = {}): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const value = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || (!allowZero && value === 0)) {
    throw new UsageError(`--${name} must be a ${allowZero ? 'non-negative' : 'positive'} integer, got "${String(raw)}"`);
  }
  return value;
}

export function stringOption(values: OptionValues, name: string): string | undefined {
  const raw = values[name];
  return typeof raw === 'string' ? raw : undefined;
}

/** An option that may be given several times (`multiple: true`), as a list; empty when absent. */
export function listOption(values: OptionValues, name: string): string[] {
  const raw = values[name];
  return Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
}
