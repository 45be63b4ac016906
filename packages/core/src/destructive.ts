import { inspectShell, type ShellInspection } from './destructive-shell.js';
import { inspectSql } from './destructive-sql.js';
import type { DestructiveFinding } from './destructive-types.js';
import type { Action } from './schemas.js';

/** The confidence seed's always-gated operations: these wait for a person whatever the confidence. */
export const ALWAYS_GATED_CATEGORIES = [
  'delete_files',
  'drop_tables',
  'production_config',
  'system_packages',
  'destructive_shell',
  'secret_files',
] as const;
export type AlwaysGatedCategory = (typeof ALWAYS_GATED_CATEGORIES)[number];

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

const SECRET_PATH =
  /(^|[/\\])(\.env(\.[\w.-]+)?|secrets?(\.[\w]+)?|credentials(\.[\w]+)?|id_rsa|id_ed25519|[\w.-]+\.pem|[\w.-]+\.key)$/i;
const PRODUCTION_CONFIG =
  /(^|[/\\_.-])(prod|production)([/\\_.-]|$).*\.(ya?ml|json|toml|ini|conf|env|tf)$|(^|[/\\])(prod|production)\.(ya?ml|json|toml|ini|conf)$/i;
const DELETE_TOOLS: ReadonlySet<string> = new Set(['delete_file', 'remove_file', 'rm', 'unlink']);
const WRITE_TOOLS: ReadonlySet<string> = new Set([
  'write_file',
  'edit_file',
  'move_file',
  'delete_file',
  'create_file',
  'Write',
  'Edit',
  'MultiEdit',
  'NotebookEdit',
]);

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

function stringArg(args: Record<string, unknown>, ...names: string[]): string | null {
  for (const name of names) {
    const value = args[name];
    if (typeof value === 'string') return value;
  }
  return null;
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

interface ActionInspection {
  shell: ShellInspection;
  sql: DestructiveFinding[];
  command: string;
}

function inspectAction(action: Action): ActionInspection {
  const tool = action.tool ?? '';
  const operation = tool === '' ? (action.operation ?? '') : '';
  const command = stringArg(action.args, 'command', 'cmd', 'script') ?? operation;
  const shell = command === '' ? { findings: [], installs: [] } : inspectShell(command);
  // A command or operation may be SQL itself ("DROP TABLE users"), so it is read as SQL too.
  const sqlText = stringArg(action.args, 'sql', 'query', 'statement');
  const sql = [sqlText, command].flatMap((text) =>
    text === null || text === '' ? [] : detectDestructiveSql(text),
  );
  return { shell, sql, command };
}

/**
 * What an action destroys: its `command` (or, without a tool, its operation) read as a shell
 * command and as SQL, and its `sql`/`query`/`statement` argument read as SQL.
 */
export function detectDestructiveAction(action: Action): DestructiveFinding[] {
  const { shell, sql } = inspectAction(action);
  return [...shell.findings, ...sql];
}

/** Which always-gated categories an action falls under; empty when none. */
export function classifyAlwaysGated(action: Action): AlwaysGatedCategory[] {
  const found = new Set<AlwaysGatedCategory>();
  const tool = action.tool ?? '';
  const { shell, sql, command } = inspectAction(action);
  if (DELETE_TOOLS.has(tool)) found.add('delete_files');
  for (const finding of shell.findings) {
    found.add('destructive_shell');
    if (finding.category === 'file_delete') found.add('delete_files');
    if (finding.category === 'sql_data_loss') found.add('drop_tables');
  }
  if (sql.length > 0) found.add('drop_tables');
  if (shell.installs.length > 0) found.add('system_packages');
  const writes = WRITE_TOOLS.has(tool) || command !== '';
  for (const path of actionPaths(action)) {
    if (SECRET_PATH.test(path) && (writes || DELETE_TOOLS.has(tool))) found.add('secret_files');
    if (PRODUCTION_CONFIG.test(path) && writes) found.add('production_config');
  }
  return ALWAYS_GATED_CATEGORIES.filter((category) => found.has(category));
}

/** True when an action falls under any always-gated category. */
export function isAlwaysGated(action: Action): boolean {
  return classifyAlwaysGated(action).length > 0;
}
