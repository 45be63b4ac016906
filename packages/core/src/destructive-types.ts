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
