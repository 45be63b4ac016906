import { z } from 'zod';
import { defineRoute } from '../route-table/define.js';

const HOOK_WAIT_MAX_MS = 600_000;

/** The fields of Claude Code's hook input Gatehouse reads; Claude Code adds fields over time, so others pass. */
function hookInputSchema(event: 'PreToolUse' | 'PermissionRequest') {
  return z.looseObject({
    hook_event_name: z.literal(event).describe(`Claude Code's event name; this route answers ${event}`),
    session_id: z.string().min(1).max(200).describe('Claude Code session id'),
    transcript_path: z.string().max(4096).optional(),
    cwd: z.string().max(4096).optional().describe('Working directory of the session'),
    permission_mode: z.string().max(50).optional(),
    tool_name: z
      .string()
      .min(1)
      .max(200)
      .describe('Tool Claude Code is about to call: Bash, Edit, Read, mcp__<server>__<tool>, …'),
    tool_input: z.record(z.string(), z.unknown()).describe("The tool's arguments"),
    tool_use_id: z.string().max(200).optional(),
  });
}

export const claudeCodePreToolUseBodySchema = hookInputSchema('PreToolUse');
export const claudeCodePermissionRequestBodySchema = hookInputSchema('PermissionRequest');

export const claudeCodeHookQuerySchema = z.strictObject({
  mode: z
    .enum(['wait', 'ask', 'defer'])
    .default('wait')
    .describe(
      'When a gate opens: wait for the decision (up to waitMs), ask (Claude Code prompts, the gate stays open), or defer (headless runs)',
    ),
  waitMs: z.coerce
    .number()
    .int()
    .min(0)
    .max(HOOK_WAIT_MAX_MS)
    .default(25_000)
    .describe("How long mode=wait holds the request; keep it under the hook's timeout"),
  atBudget: z
    .enum(['deny', 'ask'])
    .default('deny')
    .describe('mode=wait when nobody decided in time: deny (retry finds the same gate) or ask'),
  runId: z
    .string()
    .regex(/^run_[A-Za-z0-9_]{1,64}$/, 'a run id looks like run_…')
    .optional()
    .describe('The run the calls belong to, for callers that cannot send X-Gatehouse-Run-Id'),
});

export const claudeCodeHookHeadersSchema = z.looseObject({
  'x-gatehouse-run-id': z
    .string()
    .regex(/^(run_[A-Za-z0-9_]{1,64})?$/, 'a run id looks like run_… (or empty for none)')
    .optional()
    .describe('The run the calls belong to ($GATEHOUSE_RUN_ID; empty for none)'),
});

const updatedInputSchema = z.record(z.string(), z.unknown());

export const claudeCodePreToolUseResponseSchema = z.object({
  hookSpecificOutput: z.object({
    hookEventName: z.literal('PreToolUse'),
    permissionDecision: z.enum(['allow', 'deny', 'ask', 'defer']),
    permissionDecisionReason: z.string(),
    updatedInput: updatedInputSchema.optional().describe("A person's edited arguments"),
  }),
  systemMessage: z.string().optional(),
});

export const claudeCodePermissionRequestResponseSchema = z.object({
  hookSpecificOutput: z
    .object({
      hookEventName: z.literal('PermissionRequest'),
      decision: z.object({
        behavior: z.enum(['allow', 'deny']),
        updatedInput: updatedInputSchema.optional(),
        message: z.string().optional(),
      }),
    })
    .optional()
    .describe('Absent: no decision yet, Claude Code shows its own prompt'),
  systemMessage: z.string().optional(),
});

export type ClaudeCodePreToolUseBody = z.infer<typeof claudeCodePreToolUseBodySchema>;
export type ClaudeCodeHookQuery = z.infer<typeof claudeCodeHookQuerySchema>;
export type ClaudeCodePreToolUseResponse = z.infer<typeof claudeCodePreToolUseResponseSchema>;
export type ClaudeCodePermissionRequestResponse = z.infer<typeof claudeCodePermissionRequestResponseSchema>;

const tags = ['claude-code'];

/** Claude Code's `http` hooks, answered in Claude Code's own format. */
export const claudeCodeRoutes = {
  preToolUse: defineRoute({
    method: 'POST',
    path: '/v1/hooks/claude-code/pre-tool-use',
    tags,
    summary: "Claude Code's PreToolUse http hook: allow, deny, ask or defer a tool call",
    body: claudeCodePreToolUseBodySchema,
    query: claudeCodeHookQuerySchema,
    headers: claudeCodeHookHeadersSchema,
    response: { 200: claudeCodePreToolUseResponseSchema },
  }),
  permissionRequest: defineRoute({
    method: 'POST',
    path: '/v1/hooks/claude-code/permission-request',
    tags,
    summary: "Claude Code's PermissionRequest http hook: answer Claude Code's permission prompt",
    body: claudeCodePermissionRequestBodySchema,
    query: claudeCodeHookQuerySchema,
    headers: claudeCodeHookHeadersSchema,
    response: { 200: claudeCodePermissionRequestResponseSchema },
  }),
};
