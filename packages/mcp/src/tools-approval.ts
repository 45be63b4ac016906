import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { gateTypeIdSchema, riskLevelSchema, timeoutActionSchema } from 'gatehouse-hitl-core';
import { type GateResult, questionRequest, type RequestOptions } from 'gatehouse-hitl-sdk';
import { z } from 'zod';
import type { ToolContext } from './context.js';
import {
  decisionLines,
  decisionOf,
  type Extra,
  handOut,
  linkedController,
  pendingOf,
  WAIT_OVER,
  waitBounded,
  whilePending,
} from './decision.js';
import { errorResult, guarded, toolResult } from './results.js';
import {
  type ArgsOf,
  DEFAULT_WAIT_SECONDS,
  decisionOutput,
  gateIdInput,
  runIdInput,
  waitSecondsInput,
} from './schemas.js';

/** Abort reason: the request itself is still held by the server (a paused run), no gate yet. */
const HELD = Symbol('held');
/** What a failed request means for the model: it has no approval. */
const NOT_APPROVED = 'Nothing was approved: do not perform the action.';
/** The least time a request may be held before the tool gives up on it. */
const MIN_HOLD_MS = 10_000;

const requestInput = {
  tool: z.string().min(1).max(200).optional().describe('Tool name, e.g. delete_file; give tool or operation'),
  operation: z
    .string()
    .min(1)
    .max(2000)
    .optional()
    .describe('Operation text, e.g. a shell command; give tool or operation'),
  args: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('The exact arguments you will use; an approval covers only these'),
  context: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Why you want to do it and what you expect, shown to the reviewer'),
  title: z.string().min(1).max(500).optional().describe('One line for the reviewer'),
  risk: riskLevelSchema.optional().describe('Your own risk estimate; the policy may raise it'),
  runId: runIdInput.optional(),
  confidence: z.number().min(0).max(1).optional().describe('Your confidence in the step, 0–1'),
  artifacts: z
    .array(z.string().min(1).max(4096))
    .max(1000)
    .optional()
    .describe('Workspace-relative paths the action touches'),
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(30 * 24 * 3600)
    .optional()
    .describe('How long the gate stays open for a person, unless the policy sets it'),
  timeoutAction: timeoutActionSchema
    .optional()
    .describe('What happens at that deadline: deny, escalate, proceed'),
  event: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,63}$/, 'events are lowercase snake_case')
    .optional()
    .describe('A policy event such as planning_complete or destructive_action'),
  gateType: gateTypeIdSchema.optional().describe('Ask for a specific gate type'),
  wait: z
    .boolean()
    .optional()
    .describe('Wait for the decision (default true); false answers pending at once'),
  waitSeconds: waitSecondsInput.optional(),
};

const waitInput = { gateId: gateIdInput, waitSeconds: waitSecondsInput.optional() };

const askInput = {
  question: z.string().min(1).max(10_000).describe('The question, as the person should read it'),
  context: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('What the person needs to answer: options you see, what you tried'),
  runId: runIdInput.optional(),
  timeoutSeconds: requestInput.timeoutSeconds,
  waitSeconds: waitSecondsInput.optional(),
};

/** Puts a question to a person: a question gate, answered with free text. */
function askHuman(ctx: ToolContext, args: ArgsOf<typeof askInput>, extra: Extra): Promise<CallToolResult> {
  const {
    signal: _signal,
    onGate: _onGate,
    idempotencyKey: _key,
    ...request
  } = questionRequest(args.question, {
    context: args.context,
    runId: args.runId,
    timeoutSeconds: args.timeoutSeconds,
  });
  return requestApproval(ctx, { ...request, waitSeconds: args.waitSeconds }, extra);
}

type RequestArgs = ArgsOf<typeof requestInput>;

function render(result: GateResult | null, gateId: string | null): CallToolResult {
  const output = result === null ? pendingOf(gateId as string, null) : decisionOf(result);
  return toolResult(output, decisionLines(output));
}

/** Asks Gatehouse; answers the decision, or pending with the gate id once the wait runs out. */
async function requestApproval(ctx: ToolContext, args: RequestArgs, extra: Extra): Promise<CallToolResult> {
  const { wait, waitSeconds, runId, ...fields } = args;
  const waitMs = wait === false ? 0 : (waitSeconds ?? DEFAULT_WAIT_SECONDS) * 1000;
  const { controller, release } = linkedController(extra);
  const held = setTimeout(() => controller.abort(HELD), Math.max(waitMs, MIN_HOLD_MS));
  let gateId: string | null = null;
  let waitTimer: ReturnType<typeof setTimeout> | undefined;
  let stopPending = (_ended: boolean) => {};
  let ended = false;
  const request: RequestOptions = {
    ...fields,
    runId: runId ?? ctx.runId ?? undefined,
    signal: controller.signal,
    onGate: (id) => {
      gateId = id;
      clearTimeout(held);
      waitTimer = setTimeout(() => controller.abort(WAIT_OVER), waitMs);
      if (waitMs > 0) stopPending = whilePending(ctx, id, extra);
    },
  };
  try {
    const result = await ctx.api.sdk.request(request);
    ended = true;
    await handOut(ctx, result, extra);
    return render(result, result.gateId);
  } catch (error) {
    if (controller.signal.reason === WAIT_OVER && gateId !== null) return render(null, gateId);
    if (controller.signal.reason === HELD) {
      return errorResult(
        new Error('the request is held because the run is paused'),
        'Do not perform the action. Call gatehouse_get_interventions and ask again after the run resumes.',
      );
    }
    return errorResult(error, NOT_APPROVED);
  } finally {
    clearTimeout(held);
    clearTimeout(waitTimer);
    stopPending(ended);
    release();
  }
}

/** Waits for a pending gate, at most `waitSeconds`. */
async function waitForDecision(
  ctx: ToolContext,
  args: ArgsOf<typeof waitInput>,
  extra: Extra,
): Promise<CallToolResult> {
  const waitMs = (args.waitSeconds ?? DEFAULT_WAIT_SECONDS) * 1000;
  const result = await waitBounded(ctx, args.gateId, waitMs, extra);
  if (result === null) return render(null, args.gateId);
  await handOut(ctx, result, extra);
  return render(result, args.gateId);
}

/** `gatehouse_request_approval` and `gatehouse_wait_for_decision`. */
export function registerApprovalTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'gatehouse_request_approval',
    {
      title: 'Ask before acting',
      description:
        'Ask Gatehouse whether an action may go ahead, before doing it. The policy answers at once ' +
        '(approved or denied) or a person decides. Perform the action only when status is approved, ' +
        'with exactly the arguments you sent, or with args when edited is true (a person changed them). When the wait runs out the answer is status pending with ' +
        'a gateId: then call gatehouse_wait_for_decision.',
      inputSchema: z.strictObject(requestInput),
      outputSchema: decisionOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args, extra) => guarded(() => requestApproval(ctx, args, extra)),
  );

  server.registerTool(
    'gatehouse_ask_human',
    {
      title: 'Ask a person',
      description:
        'Ask a person a question and wait for their answer (free text), e.g. which of two options to ' +
        'take or a fact only they know. The answer is in answer when status is answer; status denied ' +
        'means they declined. When the wait runs out the answer is status pending with a gateId: then ' +
        'call gatehouse_wait_for_decision.',
      inputSchema: z.strictObject(askInput),
      outputSchema: decisionOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args, extra) => guarded(() => askHuman(ctx, args, extra)),
  );

  server.registerTool(
    'gatehouse_wait_for_decision',
    {
      title: 'Wait for a decision',
      description:
        'Wait for a person to decide a pending gate (from gatehouse_request_approval, a confidence ' +
        'escalation or a checkpoint). Answers the decision, or status pending again when nobody has ' +
        'decided within waitSeconds; then call it again.',
      inputSchema: z.strictObject(waitInput),
      outputSchema: decisionOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (args, extra) => guarded(() => waitForDecision(ctx, args, extra)),
  );
}
