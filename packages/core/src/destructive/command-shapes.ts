import quoteWords from 'shell-quote/quote.js';
import type { Action } from '../schemas.js';
import type { ScriptLanguage } from './destructive-code.js';

/** Everything an action's arguments carry that will run, in the forms the reader inspects. */
export interface ActionPayloads {
  /** Shell command lines: strings, argv arrays joined with shell quoting, stdin fed as a here-string. */
  shell: string[];
  /** SQL texts. */
  sql: string[];
  /** Inline code with its language; null when the language is not said. */
  code: { language: ScriptLanguage | null; text: string }[];
  /** Argument values the reader could not read as text: the action then fails closed. */
  unreadable: string[];
}

const COMMAND_KEYS = ['command', 'cmd', 'argv', 'commandLine', 'command_line', 'cmdline', 'shell_command'];
const ARGUMENT_KEYS = ['args', 'arguments'];
const STDIN_KEYS = ['stdin', 'input'];
const SQL_KEYS = ['sql', 'query', 'queries', 'statement', 'statements'];
const CODE_KEYS = ['code', 'script', 'source'];
const SHELL_LANGUAGES = new Set(['sh', 'bash', 'zsh', 'shell', 'console']);
const LANGUAGES: Readonly<Record<string, ScriptLanguage>> = {
  python: 'python',
  python3: 'python',
  py: 'python',
  node: 'node',
  nodejs: 'node',
  javascript: 'node',
  js: 'node',
  typescript: 'node',
  ts: 'node',
  perl: 'perl',
  ruby: 'ruby',
  rb: 'ruby',
  php: 'php',
};

const wordsByTool = new Map<string, readonly string[]>();
const MAX_REMEMBERED_TOOLS = 2_000;

/** The words of a tool name, lower-cased: `mcp__filesystem__deleteFile` → mcp, filesystem, delete, file. */
export function toolWords(tool: string): readonly string[] {
  // Every request splits its tool's name several times; agents use few tool names.
  const known = wordsByTool.get(tool);
  if (known !== undefined) return known;
  const words = tool
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  if (wordsByTool.size >= MAX_REMEMBERED_TOOLS) wordsByTool.clear();
  wordsByTool.set(tool, words);
  return words;
}

const SHELL_WORDS = new Set([
  'shell',
  'bash',
  'sh',
  'zsh',
  'terminal',
  'exec',
  'execute',
  'command',
  'cmd',
  'console',
  'subprocess',
  'process',
  'run',
  'powershell',
]);

/** True when a tool's name says it runs commands (`bash`, `run_shell_command`, `mcp__shell__exec`). */
export function isShellLikeTool(tool: string): boolean {
  const words = toolWords(tool);
  if (words.includes('agent') || words.includes('test') || words.includes('tests')) return false;
  return words.some((word) => SHELL_WORDS.has(word));
}

function isWordList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function languageOf(action: Action): ScriptLanguage | 'shell' | null {
  const named = [action.args.language, action.args.lang, action.args.runtime, action.args.interpreter].find(
    (value): value is string => typeof value === 'string',
  );
  const words = named === undefined ? toolWords(action.tool ?? '') : [named.toLowerCase()];
  for (const word of words) {
    if (SHELL_LANGUAGES.has(word)) return 'shell';
    const language = LANGUAGES[word];
    if (language !== undefined) return language;
  }
  return null;
}

function firstPresent(args: Record<string, unknown>, keys: readonly string[]): [string, unknown] | null {
  for (const key of keys) if (args[key] !== undefined && args[key] !== null) return [key, args[key]];
  return null;
}

/** A command value: a string, a list of words, or a list of command lines. */
function commandTexts(key: string, value: unknown, into: ActionPayloads): string[] {
  if (typeof value === 'string') return [value];
  if (isWordList(value)) return value.length === 0 ? [] : [quoteWords(value)];
  if (Array.isArray(value) && value.every(isWordList)) return value.map((words) => quoteWords(words));
  into.unreadable.push(`args.${key} is neither text nor a list of words`);
  return [];
}

function readCommand(action: Action, into: ActionPayloads): void {
  const { args } = action;
  const found = firstPresent(args, COMMAND_KEYS);
  const extra = firstPresent(args, ARGUMENT_KEYS);
  let lines = found === null ? [] : commandTexts(found[0], found[1], into);
  if (extra !== null && isWordList(extra[1]) && extra[1].length > 0) {
    // `{command: "rm", args: ["-rf", "/"]}`, or a bare argv under `args` for a tool that runs commands.
    if (lines.length === 1) lines = [`${lines[0]} ${quoteWords(extra[1])}`];
    else if (found === null && isShellLikeTool(action.tool ?? '')) lines = [quoteWords(extra[1])];
  } else if (extra !== null && found !== null && typeof extra[1] !== 'object')
    into.unreadable.push(`args.${extra[0]} is neither a list of words nor absent`);
  const stdin = firstPresent(args, STDIN_KEYS);
  if (stdin !== null && lines.length > 0) {
    if (typeof stdin[1] !== 'string') into.unreadable.push(`args.${stdin[0]} is not text`);
    else lines = lines.map((line) => `${line} <<< ${quoteWords([stdin[1] as string])}`);
  }
  into.shell.push(...lines);
}

function readSql(action: Action, into: ActionPayloads): void {
  for (const key of SQL_KEYS) {
    const value = action.args[key];
    if (value === undefined || value === null) continue;
    if (typeof value === 'string') into.sql.push(value);
    else if (isWordList(value)) into.sql.push(...value);
    else if (key !== 'query')
      into.unreadable.push(`args.${key} is neither SQL text nor a list of statements`);
  }
}

function readCode(action: Action, into: ActionPayloads): void {
  if (!CODE_KEYS.some((key) => action.args[key] !== undefined)) return;
  const language = languageOf(action);
  for (const key of CODE_KEYS) {
    const value = action.args[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') {
      into.unreadable.push(`args.${key} is not text`);
      continue;
    }
    if (language === 'shell' || (key === 'script' && language === null)) into.shell.push(value);
    else into.code.push({ language, text: value });
  }
}

/**
 * Every shape of arguments that carries something to run: command strings and argv arrays
 * (`command`, `cmd`, `argv`, with `args`), text fed on stdin, SQL in strings or arrays, inline
 * code; without a tool, the operation text is read as a command line.
 */
export function payloadsOf(action: Action): ActionPayloads {
  const payloads: ActionPayloads = { shell: [], sql: [], code: [], unreadable: [] };
  readCommand(action, payloads);
  readSql(action, payloads);
  readCode(action, payloads);
  if (action.tool === undefined && action.operation !== undefined && action.operation !== '') {
    payloads.shell.push(action.operation);
  }
  return payloads;
}
