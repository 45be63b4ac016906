import type { ShellRedirect } from './shell-command.js';

/** What a destructive command does, as reported to a reviewer. */
export const DESTRUCTIVE_CATEGORIES = [
  'file_delete',
  'download_execute',
  'disk_overwrite',
  'filesystem_format',
  'permission_change',
  'git_discard',
  'git_force_push',
  'sql_data_loss',
  'kubernetes_delete',
  'terraform_destroy',
  'cloud_storage_delete',
  'fork_bomb',
  'database_wipe',
  'container_wipe',
  'cloud_delete',
  'system_change',
  'credential_exfiltration',
  'secret_write',
  'production_config_write',
  'system_file_write',
  'root_command',
  'remote_shell',
  'shell_escape',
  'uninspectable',
] as const;
export type DestructiveCategory = (typeof DESTRUCTIVE_CATEGORIES)[number];

/** One destructive thing a command or statement does, with a reason a reviewer can read. */
export interface DestructiveFinding {
  category: DestructiveCategory;
  reason: string;
  /** The simple command or SQL statement it was found in. */
  source: string;
}

/** One program about to run, with what the walker knows about it and ways to report or look deeper. */
export interface Invocation {
  /** Program name as `programName` gives it. */
  name: string;
  args: string[];
  redirects: ShellRedirect[];
  /** Its file list comes from `find -exec` or `xargs`, so it acts on many files at once. */
  bulk: boolean;
  /** Run through sudo or doas. */
  elevated: boolean;
  report(category: DestructiveCategory, reason: string): void;
  reportInstall(reason: string): void;
  /** Inspects SQL this program runs. */
  runSql(sql: string): void;
  /** Inspects a command this program runs on many files (`find -exec`). */
  runBulk(words: string[]): void;
  /** Inspects a command this program runs once (`docker exec app …`, `bundle exec …`). */
  runCommand(words: string[]): void;
  /** Inspects a shell command line this program runs (`mongosh --eval`, a decoded payload). */
  runScript(text: string): void;
}

/** Reports what one program does, by its name. */
export type Rule = (run: Invocation) => void;
