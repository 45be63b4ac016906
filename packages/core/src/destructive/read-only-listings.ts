/**
 * More of the read-only class: commands that only list what is installed, what an archive holds or
 * what runs on this machine, and a program's own help or version. Each check names the exact
 * subcommands and options that only list; anything else is left out of the class.
 */
export type ArgsCheck = (args: readonly string[]) => boolean;

const OPTION = /^-{1,2}[a-zA-Z][\w-]*(=[\w.-]*)?$/;

/** `args` start with one of `subcommands` and carry only options from `allowed` (or any option when null). */
function subcommand(subcommands: readonly string[], allowed: RegExp | null = null): ArgsCheck {
  return (args) => {
    const [sub, ...rest] = args;
    if (sub === undefined || !subcommands.includes(sub)) return false;
    return rest.every(
      (arg) => !arg.startsWith('-') || (allowed === null ? OPTION.test(arg) : allowed.test(arg)),
    );
  };
}

/** `tar -tvf a.tar` / `tar tf a.tar`: lists an archive; never extracts, creates or runs a program. */
const tarLists: ArgsCheck = (args) => {
  const [first = '', ...rest] = args;
  const letters = first.replace(/^-/, '');
  // Only t(list), v, z, j, J and f: a letter such as I or F takes a program to run.
  if (!/^[tvzjJf]+$/.test(letters) || !letters.includes('t')) return false;
  return rest.every((arg) => !arg.startsWith('-') || /^-(v|z|j|J|f)$|^--(list|verbose|file=.*)$/.test(arg));
};

const onlyOptions =
  (allowed: RegExp): ArgsCheck =>
  (args) =>
    args.every((arg) => allowed.test(arg));

/** Listing programs whose operands name packages, devices or units, not files. */
export const NAME_OPERANDS: ReadonlySet<string> = new Set([
  'npm',
  'pnpm',
  'yarn',
  'pip',
  'pip3',
  'gem',
  'brew',
  'cargo',
  'docker',
  'lsblk',
  'ss',
  'netstat',
  'lsof',
  'mount',
  'kill',
  'crontab',
  'systemctl',
]);

export const LISTING_PROGRAMS: Readonly<Record<string, ArgsCheck>> = {
  npm: subcommand(
    ['ls', 'list', 'll', 'la'],
    /^(-g|--global|--all|-a|--json|--long|--parseable|--depth(=\d+)?|\d+)$/,
  ),
  pnpm: subcommand(
    ['ls', 'list', 'll', 'why'],
    /^(-g|--global|--json|--long|--parseable|-r|--recursive|--depth(=\d+)?|\d+)$/,
  ),
  yarn: subcommand(['why', 'list'], /^(--json|--depth(=\d+)?|--pattern)$/),
  pip: subcommand(
    ['list', 'show', 'freeze'],
    /^(-v|--verbose|-f|--files|-o|--outdated|-u|--uptodate|--format=\w+|--local|--user)$/,
  ),
  pip3: subcommand(['list', 'show', 'freeze'], /^(-v|--verbose|-f|--files|--format=\w+|--local|--user)$/),
  gem: subcommand(['list'], /^(--local|-l|-d|--details)$/),
  brew: subcommand(
    ['list', 'ls', 'info', 'deps', 'leaves', 'config'],
    /^(--versions|--formula|--cask|--tree|--installed|-1|-l)$/,
  ),
  cargo: (args) => args[0] === 'install' && args.length === 2 && args[1] === '--list',
  tar: tarLists,
  unzip: (args) => args.length >= 2 && /^-(l|v|Z|lv|vl)$/.test(args[0] as string),
  zipinfo: onlyOptions(/^(-1|-2|-s|-m|-l|-v|-h|-t|[^-].*)$/),
  docker: (args) =>
    subcommand(['ps', 'images', 'version', 'info'], /^(-a|--all|-q|--quiet|--no-trunc|-s|--size)$/)(args) ||
    (['volume', 'network', 'container', 'image'].includes(args[0] ?? '') &&
      subcommand(['ls', 'list'], /^(-a|--all|-q|--quiet)$/)(args.slice(1))) ||
    (args[0] === 'system' && subcommand(['df'], /^(-v|--verbose)$/)(args.slice(1))),
  lsblk: onlyOptions(/^-(a|f|l|m|p|o|[afmlp]+)$|^[A-Z,]+$|^\/dev\/[\w]+$/),
  ss: onlyOptions(/^-[tulpnaxs4-6]+$/),
  netstat: onlyOptions(/^-[tulpnaxrs]+$/),
  lsof: onlyOptions(/^-(i|n|P|[inP]+)$|^:\d+$|^-i:\d+$/),
  mount: (args) => args.length === 0,
  kill: (args) => args.length === 1 && (args[0] === '-l' || args[0] === '-L'),
  crontab: (args) => args.length === 1 && args[0] === '-l',
  systemctl: subcommand(
    ['status', 'list-units', 'list-unit-files', 'is-active', 'is-enabled'],
    /^(--no-pager|--all|-a|--type=\w+|--state=\w+|--user)$/,
  ),
};

/**
 * `node --version`, `docker --help`, `git commit --help`, `aws s3 rm help`: a program on the PATH asked
 * only for its help or version. Subcommands are read only for git and aws, whose help never runs what it
 * names (`docker run alpine --help` would run a container, `yarn build --help` a script); `-h` is not
 * help everywhere (`shutdown -h` halts).
 */
export function isHelpOrVersion(program: string, args: readonly string[]): boolean {
  if (!/^[a-z][\w.+-]*$/.test(program)) return false;
  if (args.length === 1) return args[0] === '--help' || args[0] === '--version';
  const words = args.slice(0, -1);
  if (!words.every((word) => /^[a-z][\w-]*$/.test(word))) return false;
  if (program === 'git') return words.length === 1 && args[1] === '--help';
  return program === 'aws' && args[args.length - 1] === 'help';
}
