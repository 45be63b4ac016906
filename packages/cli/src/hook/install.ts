import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CliError } from '../errors.js';

/** A command hook handler in Claude Code's settings. */
export interface CommandHook {
  type: 'command';
  command: string;
  /** Seconds before Claude Code gives up on the hook. */
  timeout: number;
  /** Claude Code 2.1.295 and later block the call when the hook fails (see install-transport.ts). */
  onFailure?: 'block';
}

/** An http hook handler: Claude Code POSTs the hook input to `url`. */
export interface HttpHook {
  type: 'http';
  url: string;
  /** `$VAR` / `${VAR}` are filled in by Claude Code, only for names in `allowedEnvVars`. */
  headers: Record<string, string>;
  allowedEnvVars: string[];
  timeout: number;
  /** Written only for a Claude Code known to block the call when the hook fails. */
  onFailure?: 'block';
}

export type GatehouseHook = CommandHook | HttpHook;

/** A matcher group under `hooks.<event>`. */
export interface MatcherGroup {
  matcher: string;
  hooks: GatehouseHook[];
}

export type HookEvent = 'PreToolUse' | 'PermissionRequest';

export interface InstallSpec {
  settingsPath: string;
  handler: GatehouseHook;
  matcher: string;
  /** Also answer Claude Code's own permission prompt (http, mode ask); otherwise an entry there is removed. */
  permissionRequest?: HttpHook | null;
}

/** Where the Gatehouse entry was and what it ran before an update. */
export interface PreviousEntry {
  matcher: string;
  transport: string;
  target: string;
  timeout: number | null;
}

/** What `installClaudeCodeHook` did to the settings file. */
export interface InstallResult {
  path: string;
  change: 'added' | 'updated' | 'unchanged';
  /** The file did not exist before. */
  created: boolean;
  entry: MatcherGroup;
  /** The Gatehouse entry as it was before an update. */
  previous: PreviousEntry | null;
}

type Json = Record<string, unknown>;

/** `.claude/settings.json` of the project in `cwd`, or `~/.claude/settings.json` for the user. */
export function settingsPathFor(scope: 'project' | 'user', cwd: string, home: string): string {
  return join(scope === 'project' ? cwd : home, '.claude', 'settings.json');
}

/** True for a command that runs this hook, however the binary is spelled. */
export function isGatehouseHook(command: unknown): boolean {
  return typeof command === 'string' && /gatehouse(\.c?js)?["']?\s+hook\s+claude-code(\s|$)/.test(command);
}

/** True for an http hook handler that calls a Gatehouse server's Claude Code routes. */
export function isGatehouseHttpHook(url: unknown): boolean {
  return (
    typeof url === 'string' && /\/v1\/hooks\/claude-code\/(pre-tool-use|permission-request)(\?|$)/.test(url)
  );
}

function isRecord(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isOurs(hook: unknown): boolean {
  return isRecord(hook) && (isGatehouseHook(hook.command) || isGatehouseHttpHook(hook.url));
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

function eventList(settings: Json, event: HookEvent, path: string): unknown[] {
  const hooks = settings.hooks ?? {};
  if (!isRecord(hooks))
    throw new CliError(`"hooks" in ${path} is not an object; fix it first, nothing was changed`);
  const list = hooks[event] ?? [];
  if (!Array.isArray(list)) {
    throw new CliError(`"hooks.${event}" in ${path} is not a list; fix it first, nothing was changed`);
  }
  settings.hooks = { ...hooks, [event]: list };
  return list;
}

function findOurs(list: unknown[]): { group: Json; index: number } | null {
  for (const group of list) {
    if (!isRecord(group) || !Array.isArray(group.hooks)) continue;
    const index = group.hooks.findIndex(isOurs);
    if (index >= 0) return { group, index };
  }
  return null;
}

function previousOf(group: Json, current: Json): PreviousEntry {
  return {
    matcher: typeof group.matcher === 'string' ? group.matcher : '',
    transport: String(current.type),
    target: String(current.type === 'http' ? current.url : current.command),
    timeout: typeof current.timeout === 'number' ? current.timeout : null,
  };
}

const HANDLER_KEYS = ['type', 'command', 'url', 'headers', 'allowedEnvVars', 'timeout', 'onFailure'];

function sameHandler(current: Json, handler: GatehouseHook): boolean {
  const pick = (hook: Json) => JSON.stringify(HANDLER_KEYS.map((key) => hook[key] ?? null));
  return pick(current) === pick(handler as unknown as Json);
}

function mergeInto(list: unknown[], matcher: string, handler: GatehouseHook) {
  const entry: MatcherGroup = { matcher, hooks: [handler] };
  const found = findOurs(list);
  if (found === null) {
    list.push(entry);
    return { change: 'added' as const, entry, previous: null };
  }
  const hooks = found.group.hooks as Json[];
  const current = hooks[found.index] as Json;
  const previous = previousOf(found.group, current);
  if (previous.matcher === matcher && sameHandler(current, handler)) {
    return { change: 'unchanged' as const, entry, previous: null };
  }
  if (previous.matcher === matcher || hooks.length === 1) {
    found.group.matcher = matcher;
    // The other transport's keys go: a command hook with a url (or the reverse) is not what Claude Code runs.
    const { command: _c, url: _u, headers: _h, allowedEnvVars: _a, onFailure: _o, ...rest } = current;
    hooks[found.index] = { ...rest, ...handler };
  } else {
    // The group is shared with other hooks: move ours out rather than change their matcher.
    hooks.splice(found.index, 1);
    list.push(entry);
  }
  return { change: 'updated' as const, entry, previous };
}

function removeOurs(list: unknown[]): boolean {
  const found = findOurs(list);
  if (found === null) return false;
  const hooks = found.group.hooks as Json[];
  hooks.splice(found.index, 1);
  if (hooks.length === 0) list.splice(list.indexOf(found.group), 1);
  return true;
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
  const result = mergeInto(eventList(settings, 'PreToolUse', path), spec.matcher, spec.handler);
  const hooks = isRecord(settings.hooks) ? settings.hooks : {};
  const permission = spec.permissionRequest ?? null;
  let permissionChanged = false;
  if (permission !== null) {
    permissionChanged =
      mergeInto(eventList(settings, 'PermissionRequest', path), spec.matcher, permission).change !==
      'unchanged';
  } else if (Array.isArray(hooks.PermissionRequest)) {
    permissionChanged = removeOurs(hooks.PermissionRequest);
  }
  if (result.change === 'unchanged' && permissionChanged) return { ...result, change: 'updated' };
  return result;
}

/** Merges the Gatehouse entries into a Claude Code settings file (created when missing). */
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
