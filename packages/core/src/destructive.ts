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

/** The scorer's substring patterns (confidence seed), matched case-insensitively. */
export const DESTRUCTIVE_PATTERNS: readonly string[] = ['rm ', 'drop ', 'delete ', 'truncate '];

const DESTRUCTIVE_COMMAND =
  /(^|[;&|(\s])(rm|rmdir|shred|mkfs(\.\w+)?|dd|wipefs|truncate)\s|git\s+(push\s+.*(--force|-f)\b|reset\s+--hard|clean\s+-\w*f)|\b(drop|truncate)\s+(table|database|schema)\b|\bdelete\s+from\b|>\s*\/dev\/sd|chmod\s+-R\s+0*7{3}\s+\/|:\(\)\s*\{/i;
const PACKAGE_INSTALL =
  /(^|[;&|\s])(sudo\s+)?(apt(-get)?|yum|dnf|apk|pacman|zypper|brew|snap)\s+(install|add|-S)\b|pip3?\s+install\s+.*(--break-system-packages|--user)|npm\s+(i|install)\s+(-g|--global)\b/i;
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
]);

/** True when a shell command destroys data (rm, DROP TABLE, git reset --hard, …). */
export function isDestructiveCommand(command: string): boolean {
  const lower = command.toLowerCase();
  if (DESTRUCTIVE_PATTERNS.some((pattern) => lower.includes(pattern))) return true;
  return DESTRUCTIVE_COMMAND.test(command);
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
  for (const name of ['path', 'file', 'file_path', 'filePath', 'target', 'destination', 'source']) {
    const value = action.args[name];
    if (typeof value === 'string') paths.push(value);
  }
  const many = action.args.paths;
  if (Array.isArray(many)) for (const p of many) if (typeof p === 'string') paths.push(p);
  return paths;
}

/** Which always-gated categories an action falls under; empty when none. */
export function classifyAlwaysGated(action: Action): AlwaysGatedCategory[] {
  const found = new Set<AlwaysGatedCategory>();
  const tool = action.tool ?? '';
  const command =
    stringArg(action.args, 'command', 'cmd', 'script') ?? (tool === '' ? (action.operation ?? '') : '');
  if (DELETE_TOOLS.has(tool)) found.add('delete_files');
  if (command !== '') {
    if (/(^|[;&|\s])(rm|rmdir|shred|unlink)\s/i.test(command)) found.add('delete_files');
    if (/\b(drop)\s+(table|database|schema)\b/i.test(command)) found.add('drop_tables');
    if (PACKAGE_INSTALL.test(command)) found.add('system_packages');
    if (isDestructiveCommand(command)) found.add('destructive_shell');
  }
  const sql = stringArg(action.args, 'sql', 'query');
  if (sql !== null && /\bdrop\s+(table|database|schema)\b/i.test(sql)) found.add('drop_tables');
  const paths = actionPaths(action);
  const writes = WRITE_TOOLS.has(tool) || command !== '';
  for (const path of paths) {
    if (SECRET_PATH.test(path) && (writes || DELETE_TOOLS.has(tool))) found.add('secret_files');
    if (PRODUCTION_CONFIG.test(path) && writes) found.add('production_config');
  }
  return ALWAYS_GATED_CATEGORIES.filter((category) => found.has(category));
}

export function isAlwaysGated(action: Action): boolean {
  return classifyAlwaysGated(action).length > 0;
}
