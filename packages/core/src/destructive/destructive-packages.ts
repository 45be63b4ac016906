import type { Rule } from './destructive-types.js';
import { hasFlag, parseArgs } from './shell-command.js';

/** Subcommands that change the system's packages: installing, upgrading, repairing and removing alike. */
const COMMON_CHANGES = [
  'install',
  'add',
  'reinstall',
  'in',
  'upgrade',
  'up',
  'remove',
  'rm',
  'uninstall',
  'purge',
  'autoremove',
  'erase',
  'del',
  'delete',
  'downgrade',
];

/**
 * Package managers that take a subcommand, with the subcommands of theirs that change packages beyond the
 * common ones. Refreshing an index (`apt-get update`) and searching or listing change nothing.
 */
const SUBCOMMAND_MANAGERS: Readonly<Record<string, readonly string[]>> = {
  apt: ['full-upgrade', 'dist-upgrade', 'build-dep', 'satisfy'],
  'apt-get': ['dist-upgrade', 'build-dep', 'dselect-upgrade'],
  aptitude: ['full-upgrade', 'safe-upgrade', 'dist-upgrade', 'build-dep', 'markauto', 'forbid-version'],
  yum: ['update', 'update-minimal', 'distro-sync', 'groupinstall', 'groupremove', 'localinstall', 'swap'],
  dnf: ['update', 'update-minimal', 'distro-sync', 'groupinstall', 'groupremove', 'localinstall', 'swap'],
  microdnf: ['update'],
  zypper: ['dup', 'dist-upgrade', 'update', 'patch', 'source-install', 'si'],
  apk: ['fix'],
  brew: ['unlink', 'link', 'tap', 'untap', 'cleanup', 'pin'],
  port: ['selfupdate', 'activate', 'deactivate'],
  snap: ['refresh', 'revert', 'enable', 'disable'],
  flatpak: ['update', 'repair'],
  mas: [],
  // FreeBSD's pkg, and Termux's with its short forms (i, un, rei, up).
  pkg: ['autoremove', 'lock', 'set', 'i', 'un', 'rei'],
  pkgin: ['full-upgrade', 'fug', 'ug', 'autoremove', 'ar', 'keep', 'unkeep'],
  opkg: [],
  eopkg: ['it', 'rm', 'ur'],
  guix: ['pull'],
  winget: [],
  choco: [],
  scoop: [],
};

/** Managers run with an option rather than a subcommand, and the options that change packages. */
const OPTION_MANAGERS: Readonly<Record<string, RegExp>> = {
  // A query (`-qi`) only reads, whatever else it names.
  rpm: /^(-(?![A-Za-z]*q)[A-Za-z]*[iUFe][A-Za-z]*|--install|--upgrade|--freshen|--erase|--reinstall)$/,
  dpkg: /^(-[irPa]|--install|--remove|--purge|--unpack|--configure)$/,
  softwareupdate: /^(-[A-Za-z]*i[A-Za-z]*|--install|--install-rosetta|--fetch-full-installer)$/,
  'nix-env': /^(-[A-Za-z]*[ieu][A-Za-z]*|--install|--uninstall|--upgrade|--set)$/,
  pkgutil: /^(-[ir]|--install|--remove|--forget)$/,
  'xbps-install': /./,
};

/** Programs whose every run changes the system's packages (pkg_add -u upgrades; no run only reads). */
const ALWAYS_CHANGES = new Set(['pkg_add', 'pkg_delete', 'pkgadd', 'pkgrm', 'xbps-remove', 'installer']);

function subcommandRule(extra: readonly string[]): Rule {
  const changes = new Set([...COMMON_CHANGES, ...extra]);
  return (run) => {
    const sub = run.args.find((arg) => !arg.startsWith('-'));
    if (sub !== undefined && changes.has(sub))
      run.reportInstall(`${run.name} ${sub} changes the system's packages`);
  };
}

function optionRule(pattern: RegExp): Rule {
  return (run) => {
    const option = run.args.find((arg) => pattern.test(arg));
    if (option !== undefined) run.reportInstall(`${run.name} ${option} changes the system's packages`);
  };
}

const emergeActions = optionRule(/^(-[A-Za-z]*[Cuc]|--unmerge|--update|--depclean|--deselect)$/);

/** `emerge pkg` with no action installs it; an action that only reads (search, info, pretend) does not. */
const emerge: Rule = (run) => {
  const readOnly = run.args.some((arg) =>
    /^(-[A-Za-z]*[spS]|--search|--searchdesc|--info|--pretend)$/.test(arg),
  );
  const packages = run.args.some((arg) => !arg.startsWith('-'));
  if (readOnly) return;
  if (packages) run.reportInstall('emerge installs packages into the system');
  else emergeActions(run);
};

/** Android's package manager through adb: `adb install`, `adb uninstall`, `adb shell pm …`. */
const adb: Rule = (run) => {
  const sub = run.args.find((arg) => !arg.startsWith('-'));
  if (sub !== undefined && ['install', 'install-multiple', 'uninstall', 'sideload'].includes(sub))
    run.reportInstall(`adb ${sub} changes the device's packages`);
};

const pip: Rule = (run) => {
  const args = parseArgs(run.args);
  const global = hasFlag(args, '--break-system-packages', '--user') || run.elevated;
  if (args.operands[0] === 'install' && global)
    run.reportInstall(`${run.name} install changes the system's Python packages`);
};

const npm: Rule = (run) => {
  const args = parseArgs(run.args);
  const sub = args.operands[0];
  const global = hasFlag(args, '-g', '--global') || sub === 'global';
  if (global && ['i', 'install', 'add', 'global'].includes(sub ?? ''))
    run.reportInstall(`${run.name} installs packages globally`);
};

/** `pacman -S` installs or upgrades unless it only searches, shows or refreshes; `-R` and `-U` always change. */
const pacman: Rule = (run) => {
  const change = run.args.find(
    (arg) =>
      /^(--remove|--upgrade)$/.test(arg) ||
      /^-[A-Za-z]*[RU]/.test(arg) ||
      (/^-[A-Za-z]*S/.test(arg) && !/^-S[silgpy]+$/.test(arg)) ||
      (arg === '--sync' && run.args.some((other) => !other.startsWith('-'))),
  );
  if (change !== undefined) run.reportInstall(`pacman ${change} changes the system's packages`);
};

const pmPackages = subcommandRule(['install-commit', 'install-existing']);

/** Android's pm: installs and removals, and `pm clear`, which deletes everything an app has stored. */
const pm: Rule = (run) => {
  pmPackages(run);
  if (run.args.find((arg) => !arg.startsWith('-')) === 'clear')
    run.report('file_delete', "pm clear deletes all of the app's data");
};

/** Nix's newer interface: `nix profile install|remove|upgrade`. */
const nix: Rule = (run) => {
  const [group, sub] = run.args.filter((arg) => !arg.startsWith('-'));
  if (group === 'profile' && ['install', 'add', 'remove', 'upgrade', 'rollback'].includes(sub ?? ''))
    run.reportInstall(`nix profile ${sub} changes the installed packages`);
};

/** Rules for package managers: what changes the packages of the system (or a device) rather than a project. */
export const PACKAGE_RULES: Readonly<Record<string, Rule>> = {
  ...Object.fromEntries(
    Object.entries(SUBCOMMAND_MANAGERS).map(([name, extra]) => [name, subcommandRule(extra)]),
  ),
  ...Object.fromEntries(
    Object.entries(OPTION_MANAGERS).map(([name, pattern]) => [name, optionRule(pattern)]),
  ),
  ...Object.fromEntries(
    [...ALWAYS_CHANGES].map((name) => [
      name,
      ((run) => run.reportInstall(`${run.name} changes the system's packages`)) as Rule,
    ]),
  ),
  nix,
  pm,
  pacman,
  emerge,
  adb,
  pip,
  pip3: pip,
  npm,
  pnpm: npm,
  yarn: npm,
};
