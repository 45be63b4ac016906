import { execFileSync } from 'node:child_process';
import type { CommandHook, HttpHook } from './install.js';

/** The hook answers this long before Claude Code's timeout for it. */
export const BUDGET_MARGIN_MS = 5_000;

/** The first Claude Code with `onFailure: "block"` on hooks (its 2.1.295 release; not yet in the hooks reference). */
export const ON_FAILURE_SINCE = [2, 1, 295] as const;

/** How Claude Code reaches Gatehouse and what it does while a gate is open. */
export type Transport = 'http' | 'command';
export type HookMode = 'wait' | 'ask' | 'defer';

/**
 * The command hook behind a guard: without `gatehouse` on PATH, or when it fails in any other way
 * than its own answer, the command exits 2, which makes Claude Code block the call.
 */
export function guardedCommand(budgetMs: number, defaultBudgetMs: number): string {
  const budget = budgetMs === defaultBudgetMs ? '' : ` --budget-ms ${budgetMs}`;
  return (
    'command -v gatehouse >/dev/null 2>&1 || { echo "gatehouse is not on PATH, so Gatehouse cannot check this tool call; it is blocked" >&2; exit 2; }; ' +
    `gatehouse hook claude-code${budget} || exit 2`
  );
}

/**
 * The command hook. Its guard blocks when `gatehouse` fails; `onFailure: "block"` also blocks when Claude
 * Code itself gives up on the command (its timeout), which the guard cannot see.
 */
export function commandHandler(
  command: string,
  timeoutSeconds: number,
  onFailureBlock: boolean,
): CommandHook {
  return {
    type: 'command',
    command,
    timeout: timeoutSeconds,
    ...(onFailureBlock ? { onFailure: 'block' } : {}),
  };
}

export interface HttpHandlerOptions {
  serverUrl: string;
  event: 'pre-tool-use' | 'permission-request';
  mode: HookMode;
  timeoutSeconds: number;
  onFailureBlock: boolean;
}

/** The http hook: the token and run id come from Claude Code's environment, never from the file. */
export function httpHandler(options: HttpHandlerOptions): HttpHook {
  const waitMs = Math.max(0, options.timeoutSeconds * 1000 - BUDGET_MARGIN_MS);
  const query = options.mode === 'wait' ? `mode=wait&waitMs=${waitMs}` : `mode=${options.mode}`;
  return {
    type: 'http',
    url: `${options.serverUrl}/v1/hooks/claude-code/${options.event}?${query}`,
    headers: {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code fills it in from its environment
      Authorization: 'Bearer ${GATEHOUSE_TOKEN}',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code fills it in from its environment
      'X-Gatehouse-Run-Id': '${GATEHOUSE_RUN_ID}',
    },
    allowedEnvVars: ['GATEHOUSE_TOKEN', 'GATEHOUSE_RUN_ID'],
    timeout: options.timeoutSeconds,
    ...(options.onFailureBlock ? { onFailure: 'block' as const } : {}),
  };
}

/** The version `claude --version` prints, or null when Claude Code is not installed here or says nothing usable. */
export function claudeCodeVersion(env: Record<string, string | undefined>): number[] | null {
  try {
    const text = execFileSync('claude', ['--version'], {
      env: env as NodeJS.ProcessEnv,
      encoding: 'utf8',
      timeout: 5_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const match = /(\d+)\.(\d+)\.(\d+)/.exec(text);
    return match === null ? null : match.slice(1, 4).map(Number);
  } catch {
    return null;
  }
}

/** True for a version at or after the first with `onFailure: "block"`. */
export function blocksOnFailure(version: readonly number[] | null): boolean {
  if (version === null) return false;
  for (let i = 0; i < ON_FAILURE_SINCE.length; i++) {
    const have = version[i] ?? 0;
    const need = ON_FAILURE_SINCE[i] as number;
    if (have !== need) return have > need;
  }
  return true;
}
