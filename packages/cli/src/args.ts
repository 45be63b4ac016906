import { parseArgs } from 'node:util';
import type { Action, OptionSpec, OptionValues } from './command.js';
import { UsageError } from './errors.js';

/** Options every action takes. */
export const COMMON_OPTIONS: Record<string, OptionSpec> = {
  json: { type: 'boolean', description: "Print the API's JSON instead of text" },
  help: { type: 'boolean', short: 'h', description: 'Show this help' },
};

/** The options an action accepts: its own plus the common ones (`--json` only where it applies). */
export function optionsOf(action: Action): Record<string, OptionSpec> {
  const common = action.json === false ? { help: COMMON_OPTIONS.help as OptionSpec } : COMMON_OPTIONS;
  return { ...action.options, ...common };
}

export interface ParsedArgs {
  values: OptionValues;
  positionals: string[];
}

function parseError(error: unknown, command: string): UsageError {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /'([^']+)'/.exec(message)?.[1] ?? message;
    return new UsageError(`unknown option '${option}' for gatehouse ${command}`, command);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const option = /'([^']+)'/.exec(message)?.[1] ?? 'an option';
    return new UsageError(`${option.split(' ')[0]} needs a value`, command);
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const extra = /'([^']+)'/.exec(message)?.[1] ?? '';
    return new UsageError(`unexpected argument '${extra}' for gatehouse ${command}`, command);
  }
  return new UsageError(message, command);
}

/** Parses `argv` for `action` strictly: unknown options and stray arguments are usage errors. */
export function parseActionArgs(action: Action, argv: string[], command: string): ParsedArgs {
  const options = optionsOf(action);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw parseError(error, command);
  }
  const values = parsed.values as OptionValues;
  if (values.help) return { values, positionals: parsed.positionals };
  const { min, max } = action.positionals ?? { min: 0, max: 0 };
  const count = parsed.positionals.length;
  if (count < min) {
    throw new UsageError(`gatehouse ${command} needs ${action.args ?? `${min} argument(s)`}`, command);
  }
  if (count > max) {
    const extra = parsed.positionals[max];
    throw new UsageError(`unexpected argument '${extra}' for gatehouse ${command}`, command);
  }
  return { values, positionals: parsed.positionals };
}

/** A string option's value, or undefined when it was not given. */
export function stringOption(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/** A repeatable option's values (empty when not given). */
export function listOption(values: OptionValues, name: string): string[] {
  const value = values[name];
  if (Array.isArray(value)) return value;
  return typeof value === 'string' ? [value] : [];
}

/** A whole-number option within bounds; anything else is a usage error naming the option. */
export function intOption(
  values: OptionValues,
  name: string,
  bounds: { min: number; max: number; command: string },
): number | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < bounds.min || value > bounds.max) {
    throw new UsageError(
      `--${name} must be a whole number from ${bounds.min} to ${bounds.max} (got "${text}")`,
      bounds.command,
    );
  }
  return value;
}

/** A string option that must be one of `choices`. */
export function choiceOption<T extends string>(
  values: OptionValues,
  name: string,
  choices: readonly T[],
  command: string,
): T | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  if (!(choices as readonly string[]).includes(text)) {
    throw new UsageError(`--${name} must be one of ${choices.join(', ')} (got "${text}")`, command);
  }
  return text as T;
}

/** A string option that must be given. */
export function requiredOption(values: OptionValues, name: string, command: string): string {
  const text = stringOption(values, name);
  if (text === undefined || text.trim() === '') {
    throw new UsageError(`gatehouse ${command} needs --${name}`, command);
  }
  return text;
}

const DURATION_UNITS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** A duration option such as `90s`, `30m`, `12h` or `7d` (plain numbers are seconds), in seconds within bounds. */
export function durationOption(
  values: OptionValues,
  name: string,
  bounds: { min: number; max: number; command: string },
): number | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  const match = /^(\d+)([smhd]?)$/.exec(text.trim());
  const seconds = match ? Number(match[1]) * (DURATION_UNITS[match[2] || 's'] as number) : Number.NaN;
  if (!(seconds >= bounds.min && seconds <= bounds.max)) {
    throw new UsageError(
      `--${name} must be a duration such as 90m, 12h or 7d, from ${bounds.min}s to ${bounds.max / 86_400}d (got "${text}")`,
      bounds.command,
    );
  }
  return seconds;
}
