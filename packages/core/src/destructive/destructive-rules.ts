import { CLIENT_RULES } from './destructive-clients.js';
import { OPERATIONS_RULES } from './destructive-ops.js';
import type { DestructiveCategory, Invocation, Rule } from './destructive-types.js';
import { hasFlag, parseArgs } from './shell-command.js';

const SAFE_DEVICES = /^\/dev\/(null|zero|full|u?random|stdin|stdout|stderr|tty|fd\/.*|pts\/.*|shm\/.*)$/;
const SYSTEM_DIRS = new Set([
  '/',
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/home',
  '/lib',
  '/lib32',
  '/lib64',
  '/opt',
  '/proc',
  '/root',
  '/sbin',
  '/srv',
  '/sys',
  '/usr',
  '/var',
  '/usr/bin',
  '/usr/lib',
  '/usr/local',
  '/usr/sbin',
  '/usr/share',
]);

function isDevice(path: string): boolean {
  return path.startsWith('/dev/') && !SAFE_DEVICES.test(path);
}

/** `/`, a top-level system directory, or everything in one (`/etc/*`). */
function isSystemPath(path: string): boolean {
  const bare = path.replace(/\/\*$/, '').replace(/(.)\/+$/, '$1');
  return SYSTEM_DIRS.has(bare === '' ? '/' : bare);
}

/** Directories whose files the system needs: deleting even one of them is destructive. */
const SYSTEM_FILES = /^\/(etc|usr|bin|sbin|lib\w*|boot|dev|proc|sys|root)\//;

/** A target that stands for many files or for the system: a pattern, a variable, home, `.` or `/etc/…`. */
function isWide(path: string): boolean {
  if (path === '') return false;
  const bare = path.replace(/\/+$/, '');
  return (
    /[*?[$\uE000]/.test(path) ||
    ['~', '.', '..'].includes(bare) ||
    isSystemPath(path) ||
    SYSTEM_FILES.test(path)
  );
}

const rm: Rule = (run) => {
  const args = parseArgs(run.args);
  const recursive = hasFlag(args, '-r', '-R', '--recursive');
  const force = hasFlag(args, '-f', '--force');
  if (recursive)
    return run.report('file_delete', `rm -r${force ? 'f' : ''} deletes directories and everything in them`);
  if (force) return run.report('file_delete', 'rm -f deletes files without asking');
  if (run.bulk) return run.report('file_delete', 'rm deletes every file that find or xargs hands it');
  if (args.operands.length > 1) return run.report('file_delete', 'rm deletes several files at once');
  const target = args.operands[0] ?? '';
  if (/[*?[$\uE000]/.test(target))
    run.report('file_delete', `rm deletes ${target}, which can stand for many files`);
  else if (isWide(target))
    run.report('file_delete', `rm deletes ${target}, a home, current or system location`);
  // Seed 003 gates "Deleting files" whatever the number: one file is still a deletion.
  else if (target !== '') run.report('file_delete', `rm deletes ${target}`);
};

const tee: Rule = (run) => {
  const device = parseArgs(run.args).operands.find(isDevice);
  if (device !== undefined) run.report('disk_overwrite', `tee writes straight onto the device ${device}`);
};

/** cp or mv onto a device overwrites it; mv onto /dev/null throws the file away. */
const copyOrMove: Rule = (run) => {
  const target =
    parseArgs(run.args, new Set(['-t', '--target-directory', '-S', '--suffix'])).operands.at(-1) ?? '';
  if (isDevice(target)) run.report('disk_overwrite', `${run.name} writes straight onto the device ${target}`);
  else if (run.name === 'mv' && target === '/dev/null')
    run.report('file_delete', 'mv onto /dev/null throws the files away');
};

const find: Rule = (run) => {
  const args = run.args;
  if (args.includes('-delete')) run.report('file_delete', 'find -delete deletes every file it matches');
  args.forEach((arg, i) => {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(arg)) return;
    const end = args.findIndex((word, j) => j > i && (word === ';' || word === '+'));
    run.runBulk(args.slice(i + 1, end === -1 ? args.length : end));
  });
};

const dd: Rule = (run) => {
  const target = run.args.find((arg) => arg.startsWith('of='))?.slice(3);
  if (target !== undefined && isDevice(target))
    run.report('disk_overwrite', `dd writes straight onto the device ${target}`);
};

const recursiveOwnership: Rule = (run) => {
  const args = parseArgs(run.args, new Set(['--reference']));
  if (!hasFlag(args, '-R', '--recursive')) return;
  const targets = hasFlag(args, '--reference') ? args.operands : args.operands.slice(1);
  const system = targets.find(isSystemPath);
  if (system !== undefined)
    run.report('permission_change', `${run.name} -R changes everything under ${system}`);
};

const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env']);
const PUSH_VALUED = new Set(['-o', '--push-option', '--repo', '--receive-pack', '--exec']);

function gitPush(args: string[], run: Invocation): void {
  const push = parseArgs(args, PUSH_VALUED);
  const refspecs = push.operands.slice(1);
  if (
    hasFlag(push, '-f', '--force', '--force-with-lease', '--force-if-includes') ||
    refspecs.some((ref) => ref.startsWith('+'))
  )
    run.report('git_force_push', 'git push --force rewrites history on the remote');
  else if (hasFlag(push, '-d', '--delete') || refspecs.some((ref) => ref.startsWith(':')))
    run.report('git_force_push', 'git push --delete removes a branch from the remote');
  else if (hasFlag(push, '--mirror', '--prune'))
    run.report('git_force_push', 'git push --mirror/--prune removes remote branches that are not local');
}

function isEveryPath(path: string): boolean {
  return ['.', './', ':/', '*', ':/*'].includes(path);
}

/** Why checkout/restore of everything, stash drop/clear or branch -D throws away work; null when it does not. */
function discardReason(sub: string, args: string[]): string | null {
  const parsed = parseArgs(args, new Set(['-b', '-B', '--source', '-s']));
  switch (sub) {
    case 'checkout':
      if (hasFlag(parsed, '-f', '--force') || parsed.operands.some(isEveryPath))
        return 'git checkout -f / git checkout . throws away every uncommitted change';
      return null;
    case 'restore':
      if (hasFlag(parsed, '-S', '--staged') && !hasFlag(parsed, '-W', '--worktree')) return null;
      return parsed.operands.some(isEveryPath) ? 'git restore . throws away every uncommitted change' : null;
    case 'stash':
      return ['drop', 'clear'].includes(parsed.operands[0] ?? '')
        ? 'git stash drop/clear deletes stashed changes'
        : null;
    case 'branch':
      return hasFlag(parsed, '-D') || (hasFlag(parsed, '-d', '--delete') && hasFlag(parsed, '-f', '--force'))
        ? 'git branch -D deletes a branch even when it is not merged'
        : null;
    default:
      return null;
  }
}

const git: Rule = (run) => {
  const global = parseArgs(run.args, GIT_VALUED);
  const at = run.args.indexOf(global.operands[0] ?? '');
  if (at === -1) return;
  const args = run.args.slice(at + 1);
  switch (run.args[at]) {
    case 'reset':
      if (args.includes('--hard'))
        run.report('git_discard', 'git reset --hard throws away uncommitted changes');
      return;
    case 'clean': {
      const clean = parseArgs(args);
      if (!hasFlag(clean, '-f', '--force') || hasFlag(clean, '-n', '--dry-run')) return;
      const what = hasFlag(clean, '-x') ? 'untracked and ignored files' : 'untracked files';
      return run.report(
        'git_discard',
        `git clean -f deletes ${what}${hasFlag(clean, '-d') ? ' and directories' : ''}`,
      );
    }
    case 'push':
      return gitPush(args, run);
    case 'rm':
      if (!args.includes('--cached'))
        run.report('file_delete', 'git rm deletes the files from the working tree');
      return;
    default: {
      const reason = discardReason(run.args[at] ?? '', args);
      if (reason !== null) run.report('git_discard', reason);
    }
  }
};

const KUBE_VALUED = new Set([
  '-n',
  '--namespace',
  '--context',
  '--cluster',
  '--kubeconfig',
  '-s',
  '--server',
  '--user',
  '--token',
]);

const kubectl: Rule = (run) => {
  if (parseArgs(run.args, KUBE_VALUED).operands[0] === 'delete')
    run.report('kubernetes_delete', `${run.name} delete removes cluster resources`);
};

const helm: Rule = (run) => {
  const sub = parseArgs(run.args, KUBE_VALUED).operands[0];
  if (sub === 'uninstall' || sub === 'delete')
    run.report('kubernetes_delete', 'helm uninstall removes a release and its resources');
};

const terraform: Rule = (run) => {
  const sub = run.args.find((arg) => !arg.startsWith('-'));
  if (
    sub === 'destroy' ||
    (sub === 'apply' && run.args.some((arg) => arg === '-destroy' || arg === '--destroy'))
  )
    run.report('terraform_destroy', `${run.name} destroy deletes the infrastructure it manages`);
};

const gsutil: Rule = (run) => {
  const at = run.args.indexOf('rm');
  if (at !== -1 && hasFlag(parseArgs(run.args.slice(at + 1)), '-r', '-R', '--recursive'))
    run.report('cloud_storage_delete', 'gsutil rm -r deletes every object under the path');
};

const gcloud: Rule = (run) => {
  const at = run.args.indexOf('storage');
  if (at === -1 || run.args[at + 1] !== 'rm') return;
  if (hasFlag(parseArgs(run.args.slice(at + 2)), '-r', '-R', '--recursive'))
    run.report('cloud_storage_delete', 'gcloud storage rm -r deletes every object under the path');
};

const az: Rule = (run) => {
  const words = run.args.filter((arg) => !arg.startsWith('-'));
  if (words[0] === 'storage' && words[1] === 'blob' && words[2] === 'delete-batch')
    run.report('cloud_storage_delete', 'az storage blob delete-batch deletes every matching blob');
};

const always =
  (category: DestructiveCategory, reason: string): Rule =>
  (run) =>
    run.report(category, reason);

const FILE_AND_INFRA_RULES: Readonly<Record<string, Rule>> = {
  rm,
  find,
  tee,
  cp: copyOrMove,
  mv: copyOrMove,
  dd,
  git,
  kubectl,
  oc: kubectl,
  helm,
  terraform,
  tofu: terraform,
  terragrunt: terraform,
  gsutil,
  gcloud,
  az,
  chmod: recursiveOwnership,
  chown: recursiveOwnership,
  chgrp: recursiveOwnership,
  shred: always('file_delete', 'shred overwrites files so they cannot be recovered'),
  truncate: (run) => {
    // Growing a file (`-s +50M`) keeps its contents; any other size can cut them off.
    const size = parseArgs(run.args, new Set(['-s', '--size'])).values.get('-s')?.[0] ?? '';
    if (!size.startsWith('+'))
      run.report('file_delete', 'truncate cuts files down, discarding their contents');
  },
  unlink: always('file_delete', 'unlink deletes a file'),
  rimraf: always('file_delete', 'rimraf deletes directories and everything in them'),
  mkfs: always('filesystem_format', 'mkfs creates a new file system, erasing the device'),
  mke2fs: always('filesystem_format', 'mke2fs creates a new file system, erasing the device'),
  mkswap: always('filesystem_format', 'mkswap turns the device into swap, erasing it'),
  wipefs: always('filesystem_format', 'wipefs erases file system signatures from the device'),
  ...CLIENT_RULES,
};

/** One rule per program name; where several tables know a program, each of their rules runs. */
function mergeRules(...tables: Readonly<Record<string, Rule>>[]): Record<string, Rule> {
  const merged: Record<string, Rule> = {};
  for (const table of tables)
    for (const [name, rule] of Object.entries(table)) {
      const before = merged[name];
      merged[name] =
        before === undefined
          ? rule
          : (run) => {
              before(run);
              rule(run);
            };
    }
  return merged;
}

/** What each program does that needs a person, by program name. */
export const COMMAND_RULES: Readonly<Record<string, Rule>> = mergeRules(
  FILE_AND_INFRA_RULES,
  OPERATIONS_RULES,
);

/** Redirections that write onto a block device (`> /dev/sda`). */
export function checkRedirects(run: Invocation): void {
  for (const { op, target } of run.redirects) {
    if (op.includes('>') && isDevice(target))
      run.report('disk_overwrite', `output is written straight onto the device ${target}`);
  }
}
