import { readFileSync } from 'node:fs';
import { stringOption } from '../args.js';
import type { ActionContext } from '../command.js';
import { CliError, UsageError } from '../errors.js';

const EXAMPLE = `'{"command":"rm -rf build/cache"}'`;

function readEditFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read --edit-file ${file}: ${(error as Error).message}; nothing was sent`);
  }
}

/** The arguments `--edit <json>` or `--edit-file <path>` give to approve instead of the agent's; none when neither is given. */
export function editedArgsOf(context: ActionContext): Record<string, unknown> | undefined {
  const { values, command } = context;
  const text = stringOption(values, 'edit');
  const file = stringOption(values, 'edit-file');
  if (text !== undefined && file !== undefined)
    throw new UsageError('give --edit or --edit-file, not both', command);
  if (text === undefined && file === undefined) return undefined;
  const flag = text === undefined ? `--edit-file ${file}` : '--edit';
  const source = text ?? readEditFile(file as string);
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch (error) {
    throw new UsageError(
      `${flag} is not valid JSON (${(error as Error).message}); give the arguments as a JSON object, e.g. ${EXAMPLE}`,
      command,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    const got = parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : typeof parsed;
    throw new UsageError(
      `${flag} must be a JSON object of the arguments (got ${got}), e.g. ${EXAMPLE}`,
      command,
    );
  }
  return parsed as Record<string, unknown>;
}
