import type { Action } from '../schemas.js';
import { type AlwaysGatedCategory, readAction } from './command-reader.js';
import { inspectShell } from './destructive-shell.js';
import { inspectSql } from './destructive-sql.js';
import type { DestructiveFinding } from './destructive-types.js';

export { ALWAYS_GATED_CATEGORIES, type AlwaysGatedCategory } from './command-reader.js';

export const ALWAYS_GATED_LABELS: Readonly<Record<AlwaysGatedCategory, string>> = {
  delete_files: 'Deleting files',
  drop_tables: 'Dropping database tables',
  production_config: 'Modifying production configuration',
  system_packages: 'Installing system packages',
  destructive_shell: 'Running destructive shell commands',
  secret_files: 'Modifying .env or secret files',
};

/** Tools that run shell commands; their `command` argument is inspected. */
export const SHELL_TOOLS: ReadonlySet<string> = new Set([
  'shell_execute',
  'shell',
  'bash',
  'Bash',
  'exec',
  'run_command',
]);

/** The confidence seed's substring patterns, kept for reference; detection parses the command instead. */
export const DESTRUCTIVE_PATTERNS: readonly string[] = ['rm ', 'drop ', 'delete ', 'truncate '];

/**
 * What a shell command destroys, one finding per destructive thing it does, found by parsing it:
 * every command in pipelines, lists, subshells, substitutions, `bash -c` strings, behind `sudo`,
 * `env` or `xargs`, and in `python -c`/`node -e` one-liners.
 * @example detectDestructiveCommand('find . -delete') // [{ category: 'file_delete', reason: 'find -delete deletes every file it matches', source: 'find . -delete' }]
 */
export function detectDestructiveCommand(command: string): DestructiveFinding[] {
  return inspectShell(command).findings;
}

/** What a SQL text destroys: DROP, TRUNCATE, DELETE without WHERE, ALTER TABLE … DROP COLUMN. */
export function detectDestructiveSql(sql: string): DestructiveFinding[] {
  return inspectSql(sql).map((finding) => ({
    category: 'sql_data_loss',
    reason: finding.reason,
    source: finding.statement,
  }));
}

/** True when a shell command destroys data or runs downloaded code (rm -rf, DROP TABLE, curl | sh, …). */
export function isDestructiveCommand(command: string): boolean {
  return detectDestructiveCommand(command).length > 0 || detectDestructiveSql(command).length > 0;
}

/** The paths an action touches, from the usual argument names. */
export function actionPaths(action: Action): string[] {
  const paths: string[] = [];
  for (const name of [
    'path',
    'file',
    'file_path',
    'filePath',
    'notebook_path',
    'target',
    'destination',
    'source',
  ]) {
    const value = action.args[name];
    if (typeof value === 'string') paths.push(value);
  }
  const many = action.args.paths;
  if (Array.isArray(many)) for (const p of many) if (typeof p === 'string') paths.push(p);
  return paths;
}

/**
 * What an action destroys, whatever shape its arguments take (see `readAction`): its commands
 * read as shell and as SQL, its SQL, its inline code.
 */
export function detectDestructiveAction(action: Action): DestructiveFinding[] {
  return readAction(action).findings;
}

/** Which always-gated categories an action falls under; empty when none. */
export function classifyAlwaysGated(action: Action): AlwaysGatedCategory[] {
  return readAction(action).categories;
}

/** True when an action falls under any always-gated category. */
export function isAlwaysGated(action: Action): boolean {
  return classifyAlwaysGated(action).length > 0;
}
