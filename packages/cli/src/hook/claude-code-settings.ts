import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HookSettings } from './claude-code.js';

/** The hook answers this long after it starts unless told otherwise: 5 s under the timeout `install` writes. */
export const DEFAULT_BUDGET_MS = 25_000;

/** Where `gatehouse serve` listens with no configuration (the CLI's DEFAULT_URL; a test keeps them equal). */
export const HOOK_DEFAULT_URL = 'http://127.0.0.1:7300';

/** The hook's string options; `gatehouse hook claude-code --help` describes them. */
export const HOOK_OPTION_NAMES = ['url', 'token', 'run-id', 'budget-ms', 'state-dir'] as const;

export type HookOptionValues = Partial<Record<(typeof HOOK_OPTION_NAMES)[number], string>>;

/** An option or variable the hook cannot work with; the command line reports it as wrong usage. */
export class HookSettingsError extends Error {
  override name = 'HookSettingsError';
}

const RUN_ID = /^run_[A-Za-z0-9_]{1,64}$/;

/** `$XDG_STATE_HOME/gatehouse/claude-code`, with `~/.local/state` when XDG_STATE_HOME is unset. */
export function defaultStateDir(env: Record<string, string | undefined>): string {
  const base = env.XDG_STATE_HOME?.trim()
    ? env.XDG_STATE_HOME
    : join(env.HOME || homedir(), '.local', 'state');
  return join(base, 'gatehouse', 'claude-code');
}

function serverUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new HookSettingsError(`"${text}" is not a URL; give the server address, e.g. ${HOOK_DEFAULT_URL}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HookSettingsError(
      `"${text}" is not an http(s) URL; give the server address, e.g. ${HOOK_DEFAULT_URL}`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function budget(text: string | undefined): number {
  if (text === undefined) return DEFAULT_BUDGET_MS;
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < 500 || value > 600_000) {
    throw new HookSettingsError(`--budget-ms must be a whole number from 500 to 600000 (got "${text}")`);
  }
  return value;
}

/** The hook's settings from its options, then the environment, then the defaults. */
export function hookSettings(
  values: HookOptionValues,
  env: Record<string, string | undefined>,
): HookSettings {
  const runId = values['run-id'] ?? (env.GATEHOUSE_RUN_ID?.trim() || null);
  if (runId !== null && !RUN_ID.test(runId)) {
    throw new HookSettingsError(`the run id must look like run_… (got "${runId}")`);
  }
  return {
    url: serverUrl(values.url ?? (env.GATEHOUSE_URL?.trim() || HOOK_DEFAULT_URL)),
    token: values.token ?? (env.GATEHOUSE_TOKEN?.trim() || null),
    runId,
    budgetMs: budget(values['budget-ms']),
    stateDir: values['state-dir'] ?? defaultStateDir(env),
  };
}

/**
 * The hook's options from `argv` (`--name value` or `--name=value`), or null for anything else, which
 * the full command line then reports.
 */
export function parseHookArgs(argv: readonly string[]): HookOptionValues | null {
  const values: HookOptionValues = {};
  for (let i = 0; i < argv.length; i++) {
    const match = /^--([a-z-]+)(?:=(.*))?$/s.exec(argv[i] as string);
    const name = match?.[1] as (typeof HOOK_OPTION_NAMES)[number] | undefined;
    if (name === undefined || !HOOK_OPTION_NAMES.includes(name)) return null;
    const value = match?.[2] ?? argv[++i];
    if (value === undefined) return null;
    values[name] = value;
  }
  return values;
}
