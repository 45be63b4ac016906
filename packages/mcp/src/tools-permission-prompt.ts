import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolContext } from './context.js';

/** The name `claude -p --permission-prompt-tool mcp__gatehouse__gatehouse_permission_prompt` refers to. */
export const PERMISSION_PROMPT_TOOL = 'gatehouse_permission_prompt';

/** How long the tool holds Claude Code's question for a person: under the API client's 30 s per call. */
const WAIT_MS = 25_000;

const permissionInput = {
  tool_name: z.string().min(1).max(200).describe('The tool Claude Code wants to call'),
  input: z.record(z.string(), z.unknown()).describe('The arguments it wants to call it with'),
  tool_use_id: z.string().max(200).optional().describe("Claude Code's id of this tool call"),
};

const permissionOutput = {
  behavior: z.enum(['allow', 'deny']),
  updatedInput: z.record(z.string(), z.unknown()).optional(),
  message: z.string().optional(),
};

type PermissionAnswer =
  | { behavior: 'allow'; updatedInput: Record<string, unknown> }
  | { behavior: 'deny'; message: string };

/** Claude Code reads the first text block as JSON: allow with the input to run, or deny with why. */
function answer(result: PermissionAnswer): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
}

async function decide(
  ctx: ToolContext,
  args: { tool_name: string; input: Record<string, unknown>; tool_use_id?: string | undefined },
  signal: AbortSignal,
): Promise<PermissionAnswer> {
  const output = await ctx.api.claudeCodePreToolUse(
    {
      hook_event_name: 'PreToolUse',
      session_id: 'permission-prompt',
      tool_name: args.tool_name,
      tool_input: args.input,
      ...(args.tool_use_id === undefined ? {} : { tool_use_id: args.tool_use_id }),
    },
    { waitMs: WAIT_MS, runId: ctx.runId },
    signal,
  );
  const { permissionDecision, permissionDecisionReason, updatedInput } = output.hookSpecificOutput;
  if (permissionDecision === 'allow') return { behavior: 'allow', updatedInput: updatedInput ?? args.input };
  return { behavior: 'deny', message: permissionDecisionReason };
}

/**
 * `gatehouse_permission_prompt`: the tool `claude -p --permission-prompt-tool` asks before a call its
 * permission rules do not settle. It decides as the Claude Code hooks do (policy, gate, a person's
 * edited arguments) and fails closed: anything but an allow is a deny with the reason.
 */
export function registerPermissionPromptTool(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    PERMISSION_PROMPT_TOOL,
    {
      title: 'Claude Code permission prompt',
      description:
        'For claude -p --permission-prompt-tool: decides whether Claude Code may call a tool, by the ' +
        "Gatehouse policy and, when a gate opens, a person's decision (waits up to 25 s). Answers the JSON " +
        'text Claude Code expects: {"behavior":"allow","updatedInput":…} or {"behavior":"deny","message":…}.',
      inputSchema: permissionInput,
      outputSchema: permissionOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    async (args, extra) => {
      try {
        return answer(await decide(ctx, args, extra.signal));
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        return answer({
          behavior: 'deny',
          message: `Gatehouse could not decide this call (${why}); it is denied.`,
        });
      }
    },
  );
}
