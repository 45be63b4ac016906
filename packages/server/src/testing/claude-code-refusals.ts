import { type ErrorCode, HTTP_STATUS } from 'gatehouse-hitl-protocol';

/** Claude Code's http hook routes: they refuse with 200 and a denial, since Claude Code runs a call on any error status. */
export const CLAUDE_CODE_HOOK_PATHS: ReadonlySet<string> = new Set([
  '/v1/hooks/claude-code/pre-tool-use',
  '/v1/hooks/claude-code/permission-request',
]);

/**
 * The status a response stands for: a hook route's refusal is a 200 whose `X-Gatehouse-Error` names
 * the code, so it counts as that code's status; every other response is its own status.
 */
export function refusalStatusOf(path: string, status: number, errorCode: string | null | undefined): number {
  if (!CLAUDE_CODE_HOOK_PATHS.has(path) || status !== 200 || !errorCode) return status;
  return HTTP_STATUS[errorCode as ErrorCode] ?? status;
}
