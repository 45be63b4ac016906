import { isSafeDevice, isSecretPath, isWorkspacePath } from './protected-paths.js';
import { type ArgsCheck, isHelpOrVersion, LISTING_PROGRAMS, NAME_OPERANDS } from './read-only-listings.js';
import { awkPrintsOnly, sedPrintsOnly } from './read-only-scripts.js';
import { parseArgs, parseShellScript, programName, type ShellCommand } from './shell-command.js';
import { unwrapCommand } from './shell-invocation.js';
import { placeholderOf } from './shell-scan.js';

/**
 * Commands proven read-only: they list, read or search files inside the working directory and
 * never write, delete, run other programs or reach the network. Anything not proven is not in
 * the class; the default policy lets only this class through without a person.
 */

const anyArgs: ArgsCheck = () => true;
const without =
  (...forbidden: RegExp[]): ArgsCheck =>
  (args) =>
    !args.some((arg) => forbidden.some((pattern) => pattern.test(arg)));

const FIND_ACTIONS = /^-(exec|execdir|ok|okdir|delete|fprint0?|fprintf|fls)$/;

/** `find` that only prints, or runs a read-only program on what it finds (`-exec wc -l {} +`). */
function findActionsRead(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!FIND_ACTIONS.test(arg)) continue;
    if (arg !== '-exec' && arg !== '-execdir') return false;
    const end = args.findIndex((word, j) => j > i && (word === ';' || word === '+'));
    const command = args.slice(i + 1, end === -1 ? args.length : end).filter((word) => word !== '{}');
    const check = READ_ONLY_PROGRAMS[command[0] ?? ''];
    if (end === -1 || command[0] === 'find' || check === undefined || !check(command.slice(1))) return false;
    if (!pathsStayInside(command[0] as string, command.slice(1))) return false;
    i = end;
  }
  return true;
}
const GIT_READ = new Set([
  'status',
  'diff',
  'log',
  'show',
  'blame',
  'ls-files',
  'ls-tree',
  'rev-parse',
  'describe',
  'shortlog',
  'grep',
  'cat-file',
  'whatchanged',
  'reflog',
  'rev-list',
  'merge-base',
  'name-rev',
  'for-each-ref',
  'show-ref',
  'show-branch',
  'count-objects',
  'check-ignore',
  'check-attr',
  'cherry',
  'range-diff',
  'diff-tree',
  'diff-files',
  'diff-index',
]);
/** `git branch` options whose value names a commit to filter by. */
const GIT_BRANCH_FILTER = /^--(contains|no-contains|merged|no-merged|points-at)$/;
const GIT_BRANCH_LIST = new Set([
  '-a',
  '-r',
  '-v',
  '-vv',
  '-l',
  '--list',
  '--all',
  '--remotes',
  '--show-current',
  '--no-color',
]);

/** Index of the subcommand after `--no-pager`, `-P` and `-C <dir inside the workspace>`; -1 for any other option. */
function gitSubcommandAt(args: readonly string[]): number {
  let i = 0;
  while (args[i] === '--no-pager' || args[i] === '-P' || args[i] === '-C') {
    if (args[i] === '-C') {
      const dir = args[++i] ?? '';
      if (!isWorkspacePath(dir) || isSecretPath(dir)) return -1;
    }
    i++;
  }
  return args[i]?.startsWith('-') ? -1 : i;
}

/** `git status`, `git diff`, `git log`…, and `git branch`/`tag`/`remote`/`stash` only when they list. */
const gitReads: ArgsCheck = (args) => {
  const i = gitSubcommandAt(args);
  if (i === -1) return false;
  const sub = args[i] ?? '';
  const rest = args.slice(i + 1);
  if (rest.some((arg) => /^--(output|ext-diff|textconv|exec|upload-pack|open-files-in-pager)/.test(arg)))
    return false;
  if (GIT_READ.has(sub)) return sub !== 'reflog' || rest.length === 0 || rest[0] === 'show';
  if (sub === 'branch')
    return rest.every(
      (arg, i) =>
        GIT_BRANCH_LIST.has(arg) || GIT_BRANCH_FILTER.test(arg) || GIT_BRANCH_FILTER.test(rest[i - 1] ?? ''),
    );
  if (sub === 'clean') return rest.some((arg) => arg === '-n' || arg === '--dry-run') && !rest.includes('-f');
  if (sub === 'tag') return rest.every((arg) => arg === '-l' || arg === '--list' || arg === '-n');
  if (sub === 'remote')
    return (
      rest.every((arg) => arg === '-v' || arg === '--verbose') || (rest[0] === 'get-url' && rest.length === 2)
    );
  if (sub === 'worktree')
    return rest[0] === 'list' && rest.slice(1).every((arg) => /^(--porcelain|--verbose|-v)$/.test(arg));
  if (sub === 'stash') return rest[0] === 'list' || (rest[0] === 'show' && rest.length <= 3);
  if (sub === 'config')
    return (
      rest.length > 0 &&
      rest.every((arg) => !arg.startsWith('-') || /^--(get|list|get-all|get-regexp)$|^-l$/.test(arg)) &&
      rest.some((arg) => /^--(get|list|get-all|get-regexp)$|^-l$/.test(arg))
    );
  return false;
};

const READ_ONLY_PROGRAMS: Readonly<Record<string, ArgsCheck>> = {
  ls: anyArgs,
  cat: anyArgs,
  head: anyArgs,
  tail: anyArgs,
  wc: anyArgs,
  nl: anyArgs,
  grep: without(/^--(pre|devices=write)/),
  egrep: anyArgs,
  fgrep: anyArgs,
  rg: without(/^--pre/, /^--search-zip$/, /^-z$/),
  ag: anyArgs,
  pwd: anyArgs,
  echo: anyArgs,
  which: anyArgs,
  whereis: anyArgs,
  type: anyArgs,
  file: without(/^-C$/, /^--compile$/),
  stat: anyArgs,
  du: anyArgs,
  df: anyArgs,
  tree: without(/^-o$/),
  sort: without(/^-o/, /^--output/, /^-T$/, /^--temporary-directory/, /^--compress-program/),
  cut: anyArgs,
  tr: anyArgs,
  diff: anyArgs,
  cmp: anyArgs,
  comm: anyArgs,
  basename: anyArgs,
  dirname: anyArgs,
  realpath: anyArgs,
  readlink: anyArgs,
  date: without(/^-s$/, /^--set/),
  true: anyArgs,
  false: anyArgs,
  test: anyArgs,
  '[': anyArgs,
  id: anyArgs,
  whoami: anyArgs,
  uname: anyArgs,
  seq: anyArgs,
  column: anyArgs,
  jq: anyArgs,
  od: anyArgs,
  hexdump: anyArgs,
  strings: anyArgs,
  md5sum: anyArgs,
  sha1sum: anyArgs,
  sha256sum: anyArgs,
  sha512sum: anyArgs,
  tac: anyArgs,
  rev: anyArgs,
  fold: anyArgs,
  expand: anyArgs,
  paste: anyArgs,
  sed: sedPrintsOnly,
  awk: awkPrintsOnly,
  gawk: awkPrintsOnly,
  mawk: awkPrintsOnly,
  join: anyArgs,
  look: anyArgs,
  who: anyArgs,
  groups: anyArgs,
  pstree: anyArgs,
  readelf: anyArgs,
  nm: anyArgs,
  objdump: anyArgs,
  zcat: anyArgs,
  bzcat: anyArgs,
  xzcat: anyArgs,
  base64: without(/^-o/, /^--output/),
  find: (args) => findActionsRead(args),
  uniq: (args) => args.filter((arg) => !arg.startsWith('-')).length <= 1,
  ps: anyArgs,
  top: (args) => args.some((arg) => /^-[a-zA-Z]*b/.test(arg)),
  uptime: anyArgs,
  free: anyArgs,
  cal: anyArgs,
  hostname: (args) => args.length === 0,
  git: gitReads,
  cd: anyArgs,
};

/** Programs whose first operand is a pattern, not a file. */
const PATTERN_FIRST = new Set(['grep', 'egrep', 'fgrep', 'rg', 'ag', 'look']);
/** Options whose value is text (a delimiter, a field list), not a file. */
const VALUED_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  cut: new Set(['-d', '-f', '-c', '-b', '--delimiter', '--fields', '--characters', '--bytes']),
  sort: new Set(['-t', '-k', '-S', '--field-separator', '--key', '--buffer-size']),
};
/** Programs whose operands are text, not files, or whose check reads its own operands. */
const TEXT_OPERANDS = new Set([
  'echo',
  'seq',
  'tr',
  'test',
  '[',
  'date',
  'which',
  'whereis',
  'type',
  'jq',
  'sed',
  'awk',
  'gawk',
  'mawk',
  'pstree',
  'groups',
]);
/** `find` expressions that read a file's names or contents, not only its metadata. */
const FIND_READS = new Set(['-files0-from']);

/** The paths `find` searches (the words before its expression) and the files its expression reads. */
function findPaths(args: readonly string[]): string[] {
  let start = 0;
  while (/^-([HLP]|O\d)$/.test(args[start] ?? '')) start++;
  // `-D` takes debug options before the paths; not read, so not proven.
  if (args[start] === '-D') return ['/'];
  const end = args.findIndex((arg, i) => i >= start && /^[-(!]/.test(arg));
  const paths = args.slice(start, end === -1 ? args.length : end);
  for (const [i, arg] of args.entries()) if (FIND_READS.has(arg)) paths.push(args[i + 1] ?? '/');
  return paths;
}

/** The operands that name files: no `..`, no absolute path or home, no secret file. */
function pathsStayInside(name: string, args: readonly string[]): boolean {
  if (TEXT_OPERANDS.has(name) || NAME_OPERANDS.has(name)) return true;
  const valued = VALUED_OPTIONS[name];
  let operands = valued ? parseArgs(args, valued).operands : args.filter((arg) => !arg.startsWith('-'));
  if (name === 'git') operands = operands.filter((arg) => arg.includes('/') || arg.includes('.'));
  if (PATTERN_FIRST.has(name) && !args.some((arg) => arg === '-e' || arg === '-f'))
    operands = operands.slice(1);
  if (name === 'find') operands = findPaths(args);
  return operands.every((path) => (isWorkspacePath(path) || path === '.') && !isSecretPath(path));
}

/** Only `2>&1`-style duplications and writes to /dev/null; reading input from a file inside the workspace. */
function redirectsAreHarmless(command: ShellCommand): boolean {
  if (command.input.length > 0) return false;
  return command.redirects.every(({ op, target }) => {
    if (op === '>&' && /^(\d+|-)$/.test(target)) return true;
    if (op.includes('>')) return isSafeDevice(target);
    if (op === '<') return isWorkspacePath(target) && !isSecretPath(target);
    return false;
  });
}

/**
 * True when one simple command is proven read-only. `processInputs` are the words that stand for
 * process substitutions already proven read-only (`<(sort a.txt)`): the command reads them like files.
 */
export function isReadOnlyCommand(
  command: ShellCommand,
  processInputs: ReadonlySet<string> = new Set(),
): boolean {
  const unwrapped = unwrapCommand(command.words);
  // A prefix (sudo, env, xargs, VAR=…) changes what runs; only bare commands are proven.
  if (unwrapped.argv.length !== command.words.length || unwrapped.scripts.length > 0) return false;
  const [program, ...args] = command.words;
  if (program === undefined || program !== programName(program)) return false;
  // A `$` from single quotes is literal (`grep 'x$'`); any other may expand to what no check saw.
  const expands = (arg: string, i: number) => arg.includes('$') && command.expanding?.[i + 1] !== false;
  const unseen = (arg: string, i: number) =>
    !processInputs.has(arg) && (/[`\uE000\uE001]/.test(arg) || expands(arg, i));
  if (args.some(unseen)) return false;
  if (isHelpOrVersion(program, args)) return redirectsAreHarmless(command);
  const check = READ_ONLY_PROGRAMS[program] ?? LISTING_PROGRAMS[program];
  if (check === undefined) return false;
  return check(args) && pathsStayInside(program, args) && redirectsAreHarmless(command);
}

/** True when every command of the line, and of each process substitution, is proven read-only. */
export function isReadOnlyCommandLine(line: string): boolean {
  const script = parseShellScript(line);
  if (script.error !== null || script.functions.length > 0) return false;
  // `$(…)` becomes words no check saw; `<(…)` and `>(…)` become a pipe the command reads or writes.
  const inputs = new Set<string>();
  for (const [index, substitution] of script.substitutions.entries()) {
    if (substitution.kind !== 'process' || !isReadOnlyCommandLine(substitution.body)) return false;
    inputs.add(placeholderOf(index));
  }
  if (script.pipelines.length === 0) return false;
  return script.pipelines.every((pipeline) =>
    pipeline.commands.every((command) => isReadOnlyCommand(command, inputs)),
  );
}
