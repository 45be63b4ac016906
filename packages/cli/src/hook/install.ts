import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CliError } from '../errors.js';

/** One hook handler in Claude Code's settings. */
export interface CommandHook {
  type: 'command';
  command: string;
  /** Seconds before Claude Code gives up on the hook. */
  timeout: number;
}

/** A matcher group under `hooks.PreToolUse`. */
export interface MatcherGroup {
  matcher: string;
  hooks: CommandHook[];
}

export interface InstallSpec {
  settingsPath: string;
  command: string;
  matcher: string;
  timeoutSeconds: number;
}

/** What `installClaudeCodeHook` did to the settings file. */
export interface InstallResult {
  path: string;
  change: 'added' | 'updated' | 'unchanged';
  /** The file did not exist before. */
  created: boolean;
  entry: MatcherGroup;
  /** The Gatehouse entry as it was before an update. */
  previous: { matcher: string; command: string; timeout: number | null } | null;
}

type Json = Record<string, unknown>;

/** `.claude/settings.json` of the project in `cwd`, or `~/.claude/settings.json` for the user. */
export function settingsPathFor(scope: 'project' | 'user', cwd: string, home: string): string {
  return join(scope === 'project' ? cwd : home, '.claude', 'settings.json');
}

/** True for a command that runs this hook, however the binary is spelled. */
export function isGatehouseHook(command: unknown): boolean {
  return typeof command === 'string' && /gatehouse(\.js)?["']?\s+hook\s+claude-code(\s|$)/.test(command);
}

function isRecord(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function readSettings(path: string): { settings: Json; created: boolean } {
  if (!existsSync(path)) return { settings: {}, created: true };
  const text = readFileSync(path, 'utf8');
  if (text.trim() === '') return { settings: {}, created: false };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      `${path} is not valid JSON (${(error as Error).message}); fix it first, nothing was changed`,
    );
  }
  if (!isRecord(value)) throw new CliError(`${path} is not a JSON object; fix it first, nothing was changed`);
  return { settings: value, created: false };
}

function preToolUseList(settings: Json, path: string): unknown[] {
  const hooks = settings.hooks ?? {};
  if (!isRecord(hooks))
    throw new CliError(`"hooks" in ${path} is not an object; fix it first, nothing was changed`);
  const list = hooks.PreToolUse ?? [];
  if (!Array.isArray(list)) {
    throw new CliError(`"hooks.PreToolUse" in ${path} is not a list; fix it first, nothing was changed`);
  }
  settings.hooks = { ...hooks, PreToolUse: list };
  return list;
}

function findOurs(list: unknown[]): { group: Json; index: number } | null {
  for (const group of list) {
    if (!isRecord(group) || !Array.isArray(group.hooks)) continue;
    const index = group.hooks.findIndex((hook) => isRecord(hook) && isGatehouseHook(hook.command));
    if (index >= 0) return { group, index };
  }
  return null;
}

/**
 * Puts the Gatehouse entry into parsed settings, leaving every other hook and setting as it was;
 * running it again with the same spec changes nothing.
 */
export function mergeHookEntry(
  settings: Json,
  spec: Omit<InstallSpec, 'settingsPath'>,
  path = 'the settings',
): Omit<InstallResult, 'path' | 'created'> {
  const list = preToolUseList(settings, path);
  const handler: CommandHook = { type: 'command', command: spec.command, timeout: spec.timeoutSeconds };
  const entry: MatcherGroup = { matcher: spec.matcher, hooks: [handler] };
  const found = findOurs(list);
  if (found === null) {
    list.push(entry);
    return { change: 'added', entry, previous: null };
  }
  const hooks = found.group.hooks as Json[];
  const current = hooks[found.index] as Json;
  const previous = {
    matcher: typeof found.group.matcher === 'string' ? found.group.matcher : '',
    command: String(current.command),
    timeout: typeof current.timeout === 'number' ? current.timeout : null,
  };
  const same =
    previous.matcher === spec.matcher &&
    previous.command === spec.command &&
    previous.timeout === spec.timeoutSeconds;
  if (same && current.type === 'command') return { change: 'unchanged', entry, previous: null };
  if (previous.matcher === spec.matcher || hooks.length === 1) {
    found.group.matcher = spec.matcher;
    hooks[found.index] = { ...current, ...handler };
  } else {
    // The group is shared with other hooks: move ours out rather than change their matcher.
    hooks.splice(found.index, 1);
    list.push(entry);
  }
  return { change: 'updated', entry, previous };
}

/** Merges the Gatehouse PreToolUse entry into a Claude Code settings file (created when missing). */
export function installClaudeCodeHook(spec: InstallSpec): InstallResult {
  const { settings, created } = readSettings(spec.settingsPath);
  const result = mergeHookEntry(settings, spec, spec.settingsPath);
  if (result.change !== 'unchanged') {
    mkdirSync(dirname(spec.settingsPath), { recursive: true });
    // Write through a symlinked settings file (dotfiles) instead of replacing the link.
    const target = created ? spec.settingsPath : realpathSync(spec.settingsPath);
    const temp = `${target}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(settings, null, 2)}\n`);
    renameSync(temp, target);
  }
  return { ...result, path: spec.settingsPath, created: created && result.change !== 'unchanged' };
}
