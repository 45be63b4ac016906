import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type ClaudeCodeHookQuery,
  type ClaudeCodePermissionRequestResponse,
  claudeCodeRoutes as routes,
} from 'gatehouse-hitl-protocol';
import {
  CLAUDE_CODE_PLAN_TOOL,
  type PreToolUseOutput,
  readClaudeCodeHookValue,
} from 'gatehouse-hitl-protocol/rules';
import type { AppContext } from '../context.js';
import { toGatehouseError } from '../http/error-handler.js';
import { requireAgent } from '../http/principal.js';
import { registerRoute } from '../http/register-route.js';
import { createPendingCalls, type PendingCalls } from '../services/gates/pending-calls.js';
import type { Services } from '../services/index.js';
import { decideClaudeCodeCall, type HookCall, hookFailure } from './claude-code-hook.js';

/**
 * Claude Code's PermissionRequest answer: allow or deny, or nothing so that Claude Code asks the person itself.
 * `planInput` is ExitPlanMode's input: Claude Code leaves plan mode on an allow only when it carries updatedInput.
 */
function asPermissionRequest(
  output: PreToolUseOutput,
  planInput: Record<string, unknown> | null = null,
): ClaudeCodePermissionRequestResponse {
  const { permissionDecision, permissionDecisionReason } = output.hookSpecificOutput;
  const updatedInput = output.hookSpecificOutput.updatedInput ?? planInput ?? undefined;
  const systemMessage = output.systemMessage === undefined ? {} : { systemMessage: output.systemMessage };
  if (permissionDecision === 'allow') {
    return {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'allow', ...(updatedInput === undefined ? {} : { updatedInput }) },
      },
    };
  }
  if (permissionDecision === 'deny') {
    return {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: permissionDecisionReason },
      },
      ...systemMessage,
    };
  }
  return systemMessage;
}

function inboxUrlOf(ctx: AppContext, request: FastifyRequest): string {
  return ctx.config.publicUrl ?? `${request.protocol}://${request.host}`;
}

/** The tool call from a validated body (the same reading as the command hook's). */
function hookCallOf(
  ctx: AppContext,
  request: FastifyRequest,
  hook: { signal: AbortSignal; pendingCalls: PendingCalls },
): HookCall {
  const parsed = readClaudeCodeHookValue(request.body);
  const policyAllowAnswers = parsed.kind === 'pre_tool_use';
  if (parsed.kind !== 'pre_tool_use' && parsed.kind !== 'permission_request') {
    throw new Error('the hook input is not a tool call');
  }
  const headers = request.headers as Record<string, string | undefined>;
  const query = request.query as ClaudeCodeHookQuery;
  const runId = headers['x-gatehouse-run-id']?.trim() || query.runId || null;
  return {
    agent: requireAgent(request),
    input: parsed.input,
    runId,
    query,
    inboxUrl: inboxUrlOf(ctx, request),
    signal: hook.signal,
    policyAllowAnswers,
    pendingCalls: hook.pendingCalls,
  };
}

/** An abort signal that fires when Claude Code hangs up before the answer. */
function hangUpSignal(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  void request;
  return controller.signal;
}

/** The tool name of a body that failed validation, for the denial's words. */
function toolNameOf(body: unknown): string {
  const name = (body as { tool_name?: unknown } | null)?.tool_name;
  return typeof name === 'string' && name !== '' && name.length <= 200 ? name : 'tool';
}

/**
 * Claude Code's `http` hooks: PreToolUse and PermissionRequest answered in Claude Code's own format.
 * Claude Code lets a call through on any non-2xx answer, so every refusal here (a bad token, bad input,
 * a stopped run, a database that is down) is a 200 with a denial that names the code and the field.
 */
export async function claudeCodeRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  services: Services,
): Promise<void> {
  const pendingCalls = createPendingCalls(ctx);
  app.setErrorHandler((error, request, reply) => {
    const refusal = toGatehouseError(error);
    if (refusal.code === 'INTERNAL') request.log.error({ err: error }, 'Claude Code hook failed');
    const query = { mode: 'wait', waitMs: 0, atBudget: 'deny' } as const;
    const call = {
      input: { sessionId: '', cwd: null, toolName: toolNameOf(request.body), toolInput: {}, toolUseId: null },
      runId: null,
      query,
      inboxUrl: inboxUrlOf(ctx, request),
    };
    const output = hookFailure(call, refusal);
    void reply.header('x-gatehouse-error', refusal.code);
    const isPermission = request.routeOptions.url === routes.permissionRequest.path;
    void reply.status(200).send(isPermission ? asPermissionRequest(output) : output);
  });

  registerRoute(app, routes.preToolUse, async (request, reply) => {
    const call = hookCallOf(ctx, request, { signal: hangUpSignal(request, reply), pendingCalls });
    return decideClaudeCodeCall(services, call);
  });

  registerRoute(app, routes.permissionRequest, async (request, reply) => {
    const call = hookCallOf(ctx, request, { signal: hangUpSignal(request, reply), pendingCalls });
    const planInput = call.input.toolName === CLAUDE_CODE_PLAN_TOOL ? call.input.toolInput : null;
    return asPermissionRequest(await decideClaudeCodeCall(services, call), planInput);
  });
}
