import { standingScopeSchema } from 'gatehouse-hitl-protocol';
import type { z } from 'zod';
import type { Action } from '../schemas.js';
import { isReadOnlyCommand } from './command-read-only.js';
import { type ActionReading, readAction } from './command-reader.js';
import { isSafeDevice, isWorkspacePath } from './protected-paths.js';
import { parseShellScript, programName, type ShellCommand } from './shell-command.js';
import { unwrapCommand } from './shell-invocation.js';

/**
 * What a standing ("approve always") approval covers within its tool: the exact command, a
 * command prefix (`npm test`), a path glob (`src/**`), or the whole tool where the tool has no
 * arguments worth telling apart. No scope ever covers an always-gated or unreadable call. The wire
 * shape is protocol's; this module decides what each one covers.
 */
export { standingScopeSchema };
export type StandingScope = z.infer<typeof standingScopeSchema>;

/** The scopes a person may choose for an "always" on this call, the suggestion first; or why none. */
export interface ScopeSuggestion {
  options: StandingScope[];
  /** Why "always" cannot be offered for this call at all; null when it can. */
  refusal: string | null;
}

/** Programs that run whatever their arguments say: only the exact command line can be trusted. */
const EXACT_ONLY = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'eval',
  'exec',
  'source',
  '.',
  'python',
  'node',
  'deno',
  'bun',
  'perl',
  'ruby',
  'php',
  'sudo',
  'doas',
  'su',
  'env',
  'xargs',
  'nohup',
  'timeout',
  'nice',
  'ssh',
  'curl',
  'wget',
  'find',
  'awk',
  'sed',
  'psql',
  'mysql',
  'sqlite3',
  'mongosh',
  'redis-cli',
  'docker',
  'podman',
  'kubectl',
  'npx',
  'bunx',
  'busybox',
  'watch',
]);
/** Package managers and runners whose `run`/`exec` takes the script name as part of the command. */
const SCRIPT_RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'cargo', 'make', 'just', 'go', 'poetry', 'uv']);

function simpleCommands(line: string): ShellCommand[] | null {
  const script = parseShellScript(line);
  if (script.error !== null || script.substitutions.length > 0 || script.functions.length > 0) return null;
  return script.pipelines.flatMap((pipeline) => pipeline.commands);
}

function canonicalLine(line: string): string | null {
  const commands = simpleCommands(line);
  return commands === null ? null : JSON.stringify(parseShellScript(line).pipelines);
}

function isPlainWord(word: string | undefined): word is string {
  return word !== undefined && /^[A-Za-z0-9][\w.:@+-]*$/.test(word) && !word.includes('/');
}

/** The command prefix to suggest: the program and its subcommand (`git commit`, `npm run build`). */
function prefixOf(words: readonly string[]): string[] | null {
  const [program, sub, third] = words;
  if (program === undefined || EXACT_ONLY.has(programName(program)) || program.includes('/')) return null;
  if (!isPlainWord(sub)) return [program];
  if (SCRIPT_RUNNERS.has(program) && (sub === 'run' || sub === 'exec') && isPlainWord(third))
    return [program, sub, third];
  return [program, sub];
}

/** A simple command with nothing around it that could change what runs: no prefix, no writes. */
function isBare(command: ShellCommand): boolean {
  if (command.input.length > 0) return false;
  const unwrapped = unwrapCommand(command.words);
  if (unwrapped.argv.length !== command.words.length || unwrapped.scripts.length > 0) return false;
  return command.redirects.every(
    ({ op, target }) =>
      (op === '>&' && /^(\d+|-)$/.test(target)) || (op.includes('>') && isSafeDevice(target)),
  );
}

function startsWith(words: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= words.length && prefix.every((word, i) => words[i] === word);
}

function splitPrefix(prefix: string): string[] {
  return prefix.trim().split(/\s+/);
}

/** `*` matches within one path segment, `**` any number of segments; no regular expression is built. */
export function globMatches(glob: string, path: string): boolean {
  const normal = (text: string) =>
    text
      .replace(/^\.\//, '')
      .split('/')
      .filter((segment) => segment !== '');
  return matchSegments(normal(glob), normal(path));
}

function matchSegments(glob: readonly string[], path: readonly string[]): boolean {
  if (glob.length === 0) return path.length === 0;
  const [head, ...rest] = glob;
  if (head === '**')
    return path.some((_, i) => matchSegments(rest, path.slice(i))) || matchSegments(rest, []);
  return (
    path.length > 0 && matchWord(head as string, path[0] as string) && matchSegments(rest, path.slice(1))
  );
}

function matchWord(pattern: string, word: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === word;
  const first = parts[0] as string;
  const last = parts[parts.length - 1] as string;
  if (!word.startsWith(first) || !word.endsWith(last) || word.length < first.length + last.length)
    return false;
  let at = first.length;
  for (const middle of parts.slice(1, -1)) {
    const found = word.indexOf(middle, at);
    if (found === -1 || found + middle.length > word.length - last.length) return false;
    at = found + middle.length;
  }
  return true;
}

function hasNothingToTellApart(reading: ActionReading): boolean {
  const { payloads, paths } = reading;
  return (
    payloads.shell.length === 0 &&
    payloads.sql.length === 0 &&
    payloads.code.length === 0 &&
    paths.length === 0
  );
}

/** Why no "always" may cover this call (always-gated, unreadable); null when one may. */
function refusalOf(reading: ActionReading): string | null {
  if (reading.categories.length > 0)
    return `the call falls under always-gated operations (${reading.categories.join(', ')}), which a person approves every time`;
  if (!reading.readable)
    return 'the call cannot be read in full, so no standing approval can tell what it covers';
  return null;
}

function pathDirectoryGlob(path: string): string {
  const directory = path.replace(/^\.\//, '').replace(/\/[^/]*$/, '');
  return directory === path.replace(/^\.\//, '') ? path : `${directory}/**`;
}

/**
 * The scopes a person may choose for "always" on this call, most specific first, with the
 * suggestion first: an exact command and its prefix for commands, a folder glob for file tools.
 * @example suggestStandingScopes({ tool: 'bash', args: { command: 'npm test' } }).options[0] // { kind: 'prefix', prefix: 'npm test' }
 */
export function suggestStandingScopes(action: Action): ScopeSuggestion {
  const reading = readAction(action);
  const refusal = refusalOf(reading);
  if (refusal !== null) return { options: [], refusal };
  const { payloads, paths } = reading;
  // SQL and inline code have no prefix that keeps their meaning: they are approved each time.
  if (payloads.sql.length > 0 || payloads.code.length > 0)
    return { options: [], refusal: 'SQL and inline code are approved each time they are sent' };
  if (payloads.shell.length > 0) return { options: commandScopes(payloads.shell), refusal: null };
  if (paths.length > 0) {
    const globs = [...new Set(paths.map(pathDirectoryGlob))];
    const usable = paths.every(isWorkspacePath) && globs.length === 1;
    return {
      options: usable ? [{ kind: 'path', glob: globs[0] as string }] : [],
      refusal: usable
        ? null
        : 'the call names paths outside the workspace or in several folders; approve it once',
    };
  }
  return { options: [{ kind: 'tool' }], refusal: null };
}

function commandScopes(lines: readonly string[]): StandingScope[] {
  const options: StandingScope[] = [];
  const commands = lines.length === 1 ? simpleCommands(lines[0] as string) : null;
  const main = commands?.filter((command) => !isReadOnlyCommand(command)) ?? [];
  const only = main.length === 1 ? main[0] : main.length === 0 ? commands?.[0] : undefined;
  if (only !== undefined && isBare(only)) {
    const prefix = prefixOf(only.words);
    if (prefix !== null) options.push({ kind: 'prefix', prefix: prefix.join(' ') });
  }
  if (lines.length === 1) options.push({ kind: 'command', command: (lines[0] as string).trim() });
  return options;
}

function prefixCovers(prefix: string, reading: ActionReading): boolean {
  const words = splitPrefix(prefix);
  if (EXACT_ONLY.has(programName(words[0]))) return false;
  const { payloads } = reading;
  if (payloads.shell.length === 0 || payloads.sql.length > 0 || payloads.code.length > 0) return false;
  return payloads.shell.every((line) => {
    const commands = simpleCommands(line);
    if (commands === null || commands.length === 0) return false;
    const matching = commands.filter((command) => isBare(command) && startsWith(command.words, words));
    return (
      matching.length > 0 &&
      commands.every((command) => matching.includes(command) || isReadOnlyCommand(command))
    );
  });
}

function commandCovers(command: string, reading: ActionReading): boolean {
  const { payloads } = reading;
  if (payloads.shell.length !== 1 || payloads.sql.length > 0 || payloads.code.length > 0) return false;
  const wanted = canonicalLine(command);
  return wanted !== null && wanted === canonicalLine(payloads.shell[0] as string);
}

function pathCovers(glob: string, reading: ActionReading): boolean {
  const { payloads, paths } = reading;
  if (payloads.shell.length > 0 || payloads.sql.length > 0 || payloads.code.length > 0) return false;
  if (!isWorkspacePath(glob)) return false;
  return paths.length > 0 && paths.every((path) => isWorkspacePath(path) && globMatches(glob, path));
}

/**
 * True when a standing approval with this scope covers the call (its tool is matched by the
 * caller). Never for an always-gated or unreadable call; a whole-tool scope never covers a call
 * that carries a command, SQL, code or paths.
 */
export function standingScopeCovers(scope: StandingScope, action: Action): boolean {
  const reading = readAction(action);
  if (refusalOf(reading) !== null) return false;
  switch (scope.kind) {
    case 'tool':
      return hasNothingToTellApart(reading);
    case 'prefix':
      return prefixCovers(scope.prefix, reading);
    case 'command':
      return commandCovers(scope.command, reading);
    case 'path':
      return pathCovers(scope.glob, reading);
  }
}

/**
 * Why a person's chosen scope cannot be remembered for this call; null when it can. The scope
 * must cover the call it was chosen on, and a prefix must name a program that does not run
 * arbitrary text (`sh`, `python`, `sudo` are approved by exact command only).
 */
export function standingScopeRefusal(scope: StandingScope, action: Action): string | null {
  const refusal = refusalOf(readAction(action));
  if (refusal !== null) return refusal;
  if (scope.kind === 'prefix' && EXACT_ONLY.has(programName(splitPrefix(scope.prefix)[0])))
    return `${splitPrefix(scope.prefix)[0]} runs whatever its arguments say; approve the exact command instead`;
  if (scope.kind === 'path' && !isWorkspacePath(scope.glob))
    return 'a path scope must stay inside the workspace (relative, no ..)';
  if (!standingScopeCovers(scope, action)) return 'the scope does not cover the call it was chosen on';
  return null;
}

/** The scope as people read it, in Claude Code's notation: `Bash(npm test:*)`, `Edit(src/**)`. */
export function describeStandingScope(tool: string, scope: StandingScope): string {
  switch (scope.kind) {
    case 'tool':
      return tool;
    case 'prefix':
      return `${tool}(${scope.prefix}:*)`;
    case 'command':
      return `${tool}(${scope.command})`;
    case 'path':
      return `${tool}(${scope.glob})`;
  }
}
