import parseWords from 'shell-quote/parse.js';
import { DOLLAR, type ScannedShell, type Substitution, scanShell } from './shell-scan.js';

/** A redirection such as `> out.txt` or `2>&1`. */
export interface ShellRedirect {
  op: string;
  target: string;
}

/** One simple command: its words (assignments and wrappers included) and redirections. */
export interface ShellCommand {
  words: string[];
  redirects: ShellRedirect[];
  /** Text fed on standard input by a heredoc or a here-string. */
  input: string[];
  /** Per word, whether it holds a `$` the shell expands (one outside single quotes); absent when not known. */
  expanding?: boolean[];
}

/** Commands joined by `|`; each later one reads what the one before it writes. */
export interface ShellPipeline {
  commands: ShellCommand[];
}

/** A parsed command line: its pipelines in order, and the substitutions its words refer to. */
export interface ShellScript {
  pipelines: ShellPipeline[];
  substitutions: Substitution[];
  /** Names of the shell functions it defines (`name() { … }`). */
  functions: string[];
  /** Why the text could not be split into words (an unterminated quote, …); null when it could. */
  error: string | null;
}

type Token = parseWords.ParseEntry;

const PIPES = new Set(['|', '|&']);
const REDIRECTS = new Set(['<', '>', '>>', '>|', '<>', '&>', '&>>', '>&', '<&', '<<', '<<-', '<<<']);

function emptyCommand(): ShellCommand {
  return { words: [], redirects: [], input: [], expanding: [] };
}

/** A `$` that starts an expansion: a name, a digit, `{`, `[`, or a special parameter other than the numbers `$?` and `$#`. */
const EXPANSION = new RegExp(`${DOLLAR}[\\w{[@*!${DOLLAR}-]`);

function expands(token: Token | undefined): boolean {
  if (typeof token === 'string') return EXPANSION.test(token);
  return token !== undefined && 'op' in token && token.op === 'glob' && EXPANSION.test(token.pattern);
}

function wordOf(token: Token | undefined): string | null {
  if (typeof token === 'string') return token.replaceAll(DOLLAR, '$');
  if (token !== undefined && 'op' in token && token.op === 'glob')
    return token.pattern.replaceAll(DOLLAR, '$');
  return null;
}

function isOp(token: Token | undefined, op: string): boolean {
  return typeof token === 'object' && 'op' in token && token.op === op;
}

/** Splits a scanned text into pipelines of simple commands, using shell-quote for words and operators. */
function splitScanned(scanned: ScannedShell): Pick<ShellScript, 'pipelines' | 'functions'> {
  const tokens: Token[] = parseWords(scanned.text);
  const pipelines: ShellPipeline[] = [];
  const functions: string[] = [];
  let commands: ShellCommand[] = [];
  let command = emptyCommand();
  let heredoc = 0;
  const endCommand = () => {
    if (command.words.length > 0 || command.input.length > 0) commands.push(command);
    command = emptyCommand();
  };
  const endPipeline = () => {
    endCommand();
    if (commands.length > 0) pipelines.push({ commands });
    commands = [];
  };
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    const word = wordOf(token);
    const op = typeof token === 'object' && 'op' in token ? token.op : null;
    if (word !== null && isOp(tokens[i + 1], '(') && isOp(tokens[i + 2], ')')) {
      functions.push(word);
      i += 2;
    } else if (word !== null) {
      command.words.push(word);
      command.expanding?.push(expands(token));
    } else if (op === null) continue;
    else if (PIPES.has(op)) endCommand();
    else if (REDIRECTS.has(op)) {
      const target = wordOf(tokens[i + 1]);
      if (target !== null) i++;
      // `2>` splits into the word `2` and the operator: the number is a file descriptor, not an argument.
      if (/^\d+$/.test(command.words[command.words.length - 1] ?? '')) {
        command.words.pop();
        command.expanding?.pop();
      }
      if (op === '<<' || op === '<<-') command.input.push(scanned.heredocs[heredoc++] ?? '');
      else if (op === '<<<') command.input.push(target ?? '');
      else command.redirects.push({ op, target: target ?? '' });
    } else endPipeline();
  }
  endPipeline();
  return { pipelines, functions };
}

/** Lines parsed lately: the reader, the read-only check and the scope suggestion all read the same line. */
const recentlyParsed = new Map<string, ShellScript>();
const RECENTLY_PARSED_LIMIT = 64;

/**
 * Parses a shell command line into pipelines of simple commands; never throws, sets `error` instead.
 * A line is parsed once however many checks read it: the result is shared, so callers never change it.
 */
export function parseShellScript(source: string): ShellScript {
  const cached = recentlyParsed.get(source);
  if (cached !== undefined) return cached;
  const script = parseFresh(source);
  if (recentlyParsed.size >= RECENTLY_PARSED_LIMIT) {
    const oldest = recentlyParsed.keys().next().value as string;
    recentlyParsed.delete(oldest);
  }
  recentlyParsed.set(source, script);
  return script;
}

function parseFresh(source: string): ShellScript {
  const scanned = scanShell(source);
  try {
    return { ...splitScanned(scanned), substitutions: scanned.substitutions, error: null };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { pipelines: [], functions: [], substitutions: scanned.substitutions, error: message };
  }
}

/** Options, option values and operands of an argument list, in the getopt style most tools use. */
export interface ParsedArgs {
  flags: Set<string>;
  values: Map<string, string[]>;
  operands: string[];
}

function addValue(parsed: ParsedArgs, flag: string, value: string | undefined): void {
  if (value === undefined) return;
  parsed.values.set(flag, [...(parsed.values.get(flag) ?? []), value]);
}

/**
 * Splits `args` into flags (`-rf` gives `-r` and `-f`; `--force=x` gives `--force`), values of
 * the options in `valued`, and operands; everything after `--` is an operand.
 */
export function parseArgs(args: readonly string[], valued: ReadonlySet<string> = new Set()): ParsedArgs {
  const parsed: ParsedArgs = { flags: new Set(), values: new Map(), operands: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      parsed.operands.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const flag = eq === -1 ? arg : arg.slice(0, eq);
      parsed.flags.add(flag);
      addValue(parsed, flag, eq !== -1 ? arg.slice(eq + 1) : valued.has(flag) ? args[++i] : undefined);
    } else if (arg.startsWith('-') && arg.length > 1) {
      for (let j = 1; j < arg.length; j++) {
        const flag = `-${arg[j]}`;
        parsed.flags.add(flag);
        if (!valued.has(flag)) continue;
        addValue(parsed, flag, j + 1 < arg.length ? arg.slice(j + 1) : args[++i]);
        break;
      }
    } else parsed.operands.push(arg);
  }
  return parsed;
}

/** True when any of `flags` was given. */
/** Words of `args` that are not options, in order. */
export function nonOptions(args: readonly string[]): string[] {
  return args.filter((arg) => !arg.startsWith('-'));
}

export function hasFlag(parsed: ParsedArgs, ...flags: string[]): boolean {
  return flags.some((flag) => parsed.flags.has(flag));
}

/** The program a word names: `/usr/bin/python3.12` → `python`, `mkfs.ext4` → `mkfs`. */
export function programName(word: string | undefined): string {
  const base = (word ?? '').replace(/^.*\//, '');
  if (/^python[\d.]*$/.test(base)) return 'python';
  if (base === 'nodejs') return 'node';
  if (/^mkfs(\..+)?$/.test(base)) return 'mkfs';
  return base;
}
