import { programName } from './shell-command.js';

/** The command a line really runs once prefixes such as `sudo`, `env` or `xargs` are taken off. */
export interface UnwrappedCommand {
  /** The program and its arguments. */
  argv: string[];
  /** A prefix hands it a list of files (`xargs`). */
  bulk: boolean;
  /** A prefix runs it as another user (`sudo`, `doas`). */
  elevated: boolean;
  /** Command strings a prefix runs through a shell (`su -c`, `env -S`, `watch`). */
  scripts: string[];
}

interface Wrapper {
  /** Options that take a value in the next word. */
  valued?: readonly string[];
  /** Options whose value is a command string. */
  script?: readonly string[];
  /** Words after the options that are not the command (timeout's duration, chroot's directory). */
  skip?: number;
  bulk?: boolean;
  elevated?: boolean;
  /** The rest is one command string (watch). */
  joins?: boolean;
  /** Only its command-string options run anything, wherever they stand (`su root -c …`). */
  scriptOnly?: boolean;
}

const WRAPPERS: Readonly<Record<string, Wrapper>> = {
  sudo: {
    valued: ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-T', '-U', '-R', '--user', '--group'],
    elevated: true,
  },
  doas: { valued: ['-u', '-C'], elevated: true },
  su: { script: ['-c', '--command'], elevated: true, scriptOnly: true },
  env: { valued: ['-u', '--unset', '-C', '--chdir'], script: ['-S', '--split-string'] },
  nice: { valued: ['-n', '--adjustment'] },
  ionice: { valued: ['-c', '-n', '--class', '--classdata'] },
  timeout: { valued: ['-s', '-k', '--signal', '--kill-after'], skip: 1 },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  xargs: {
    valued: [
      '-I',
      '-n',
      '-P',
      '-L',
      '-d',
      '-E',
      '-a',
      '-s',
      '--max-args',
      '--max-procs',
      '--delimiter',
      '--arg-file',
    ],
    bulk: true,
  },
  parallel: {
    valued: ['-j', '--jobs', '-S', '--sshlogin', '-a', '--arg-file', '--delimiter', '-d'],
    bulk: true,
  },
  flock: { valued: ['-w', '-E', '--timeout', '--conflict-exit-code'], script: ['-c', '--command'], skip: 1 },
  chroot: { valued: ['--userspec', '--groups'], skip: 1 },
  watch: { valued: ['-n', '--interval', '-q', '--equexit'], joins: true },
  // ssh runs the words after the host as a command line on that host.
  ssh: {
    valued: [
      '-p',
      '-i',
      '-l',
      '-o',
      '-F',
      '-J',
      '-L',
      '-R',
      '-D',
      '-b',
      '-c',
      '-E',
      '-e',
      '-I',
      '-m',
      '-O',
      '-Q',
      '-S',
      '-W',
      '-w',
      '-B',
    ],
    skip: 1,
    joins: true,
  },
  npx: { valued: ['-p', '--package', '-c', '--call'] },
  bunx: { valued: ['-p', '--package'] },
  nohup: {},
  setsid: {},
  time: {},
  command: {},
  builtin: {},
  exec: { valued: ['-a'] },
  busybox: {},
  unbuffer: {},
  caffeinate: {},
};

/** Shell keywords that can stand before a command in a list: `if rm …`, `do rm …`, `! rm …`. */
const KEYWORDS = new Set([
  '!',
  '{',
  '}',
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'while',
  'until',
  'esac',
]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;

function dropPrefixWords(words: string[]): string[] {
  let i = 0;
  while (i < words.length && (KEYWORDS.has(words[i] as string) || ASSIGNMENT.test(words[i] as string))) i++;
  return words.slice(i);
}

/** Index of the first word after the wrapper's options; command-string options go to `scripts`. */
function skipOptions(argv: readonly string[], wrapper: Wrapper, scripts: string[]): number {
  let i = 1;
  while (i < argv.length) {
    const word = argv[i] as string;
    if (word === '--') return i + 1;
    if (!word.startsWith('-') || word === '-') break;
    const [flag = word, inline] = word.startsWith('--') ? word.split(/=(.*)/s) : [word];
    if (wrapper.script?.includes(flag)) {
      const value = inline ?? argv[++i];
      if (value !== undefined) scripts.push(value);
    } else if (wrapper.valued?.includes(flag) && inline === undefined) i++;
    i++;
  }
  return i;
}

/** Takes prefixes, keywords and variable assignments off a simple command's words. */
export function unwrapCommand(words: readonly string[]): UnwrappedCommand {
  const result: UnwrappedCommand = {
    argv: dropPrefixWords([...words]),
    bulk: false,
    elevated: false,
    scripts: [],
  };
  for (let guard = 0; guard < 16; guard++) {
    const wrapper = WRAPPERS[programName(result.argv[0])];
    if (wrapper === undefined) break;
    result.bulk ||= wrapper.bulk === true;
    result.elevated ||= wrapper.elevated === true;
    if (wrapper.scriptOnly === true) {
      result.argv.forEach((word, i) => {
        const value = result.argv[i + 1];
        if (wrapper.script?.includes(word) && value !== undefined) result.scripts.push(value);
      });
      result.argv = [];
      break;
    }
    const start = skipOptions(result.argv, wrapper, result.scripts) + (wrapper.skip ?? 0);
    const rest = dropPrefixWords(result.argv.slice(start));
    if (wrapper.joins === true) {
      if (rest.length > 0) result.scripts.push(rest.join(' '));
      result.argv = [];
      break;
    }
    result.argv = rest;
  }
  return result;
}
