import { uploadedFiles } from './destructive-ops.js';
import type { Invocation } from './destructive-types.js';
import { isSafeDevice, isSecretPath, protectedKindOf } from './protected-paths.js';
import { parseArgs } from './shell-command.js';

function operands(args: readonly string[]): string[] {
  return parseArgs(args).operands;
}

/** `sed -i`, `sed -Ei.bak`, `perl -pi -e`, `--in-place`: the program edits its files where they are. */
function editsInPlace(args: readonly string[]): boolean {
  return args.some((arg) => /^-[A-Za-z]*i/.test(arg) && !arg.startsWith('--')) || args.includes('--in-place');
}

/** The files `sed -i`/`perl -i` edits: every operand after the script, or all of them with -e/-f. */
function inPlaceFiles(run: Invocation): string[] {
  const parsed = parseArgs(run.args, new Set(['-e', '-f', '--expression', '--file']));
  const scripted = ['-e', '-f', '--expression', '--file'].some((flag) => parsed.values.has(flag));
  return scripted ? parsed.operands : parsed.operands.slice(1);
}

/** The files a program writes, moves, truncates or deletes, from its arguments and redirections. */
export function writtenPaths(run: Invocation): string[] {
  const paths = run.redirects
    .filter(({ op, target }) => op.includes('>') && !(op === '>&' && /^(\d+|-)$/.test(target)))
    .map(({ target }) => target);
  const files = operands(run.args);
  switch (run.name) {
    case 'tee':
    case 'touch':
    case 'truncate':
    case 'rm':
    case 'unlink':
    case 'shred':
    case 'mv':
      paths.push(...files);
      break;
    case 'cp':
    case 'install':
    case 'ln':
    case 'rsync':
      paths.push(...files.slice(-1));
      break;
    case 'chmod':
    case 'chown':
    case 'chgrp':
      paths.push(...files.slice(1));
      break;
    case 'dd':
      paths.push(...run.args.filter((arg) => arg.startsWith('of=')).map((arg) => arg.slice(3)));
      break;
    case 'sed':
    case 'perl':
    case 'ruby':
      if (editsInPlace(run.args)) paths.push(...inPlaceFiles(run));
      break;
  }
  return paths.filter((path) => path !== '' && !isSafeDevice(path));
}

/** Reports writes to .env and secret files, production configuration and the host's own files. */
export function checkProtectedWrites(run: Invocation): void {
  for (const path of writtenPaths(run)) {
    switch (protectedKindOf(path)) {
      case 'secret':
        run.report('secret_write', `${run.name} modifies ${path}, a secret file`);
        break;
      case 'production_config':
        run.report('production_config_write', `${run.name} modifies ${path}, production configuration`);
        break;
      case 'system':
        run.report('system_file_write', `${run.name} modifies ${path}, a file of the machine itself`);
        break;
      case null:
        break;
    }
  }
}

const COPIERS_TO_REMOTE = new Set(['scp', 'rsync', 'sftp', 'rclone']);

/** The secret files a program sends to another machine (`curl -d @~/.aws/credentials`, `scp .env host:`). */
export function sentSecrets(run: Invocation): string[] {
  const sent = uploadedFiles(run).filter(isSecretPath);
  const inputs = run.redirects.filter(({ op }) => op === '<').map(({ target }) => target);
  if (isSender(run.name)) sent.push(...inputs.filter(isSecretPath));
  if (COPIERS_TO_REMOTE.has(run.name)) {
    const files = operands(run.args);
    if (files.some((file) => /^[^/]*:/.test(file))) sent.push(...files.filter(isSecretPath));
  }
  return sent;
}

const SENDERS = new Set([
  'curl',
  'wget',
  'http',
  'https',
  'xh',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'telnet',
  'ssh',
  'openssl',
  'mail',
  'sendmail',
]);

/** True for a program that sends what it reads to another machine. */
export function isSender(name: string): boolean {
  return SENDERS.has(name);
}

/** True when a program reads a secret file named in its arguments or input (`cat ~/.ssh/id_rsa`). */
export function readsSecret(run: Pick<Invocation, 'args' | 'redirects'>): boolean {
  const inputs = run.redirects.filter(({ op }) => op === '<').map(({ target }) => target);
  return [...operands(run.args), ...inputs].some(isSecretPath);
}
