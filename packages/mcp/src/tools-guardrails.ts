import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { isGatehouseApiError } from 'gatehouse-hitl-sdk';
import { z } from 'zod';
import type { DecideBody, RunDetail } from './api.js';
import type { ToolContext } from './context.js';
import type { Extra } from './decision.js';
import { type PolicyOutput, policyOutput, policyRules } from './policy-rules.js';
import { defined, errorResult, guarded, quoted, toolResult } from './results.js';
import { type ArgsOf, gateIdInput, optionIdInput, runIdInput } from './schemas.js';

const confidenceInput = {
  score: z.number().int().min(0).max(100).optional().describe('Confidence 0–100, a whole number'),
  confidence: z.number().min(0).max(1).optional().describe('Confidence 0–1'),
  reasons: z.array(z.string().max(2000)).max(50).optional().describe('Why, one reason per entry'),
  taskId: z.string().min(1).max(200).optional().describe('The task this is about'),
  runId: runIdInput.optional(),
};

const contextInput = {
  runId: runIdInput.optional(),
  tool: z.string().min(1).max(200).optional().describe('Only rules that can apply to this tool'),
};

const logInput = {
  gateId: gateIdInput,
  option: optionIdInput,
  reason: z.string().max(2000).optional().describe('Why'),
  feedback: z.string().max(10_000).optional().describe('Feedback for the agent'),
  instructions: z.string().max(10_000).optional().describe('Steer instructions, for option steer'),
  affectedArtifacts: z
    .array(z.string().min(1).max(4096))
    .max(200)
    .optional()
    .describe('Workspace paths the steer is about'),
  confirmApproval: z
    .boolean()
    .optional()
    .describe(
      'Only for steer on a gate that cannot be steered: it is recorded as approve with the instructions as feedback. Send true only after the person confirmed exactly that',
    ),
};

const confidenceOutput = z.object({
  id: z.string().nullable().describe('The stored report'),
  escalated: z.boolean().describe('True when the report opened a gate a person must answer'),
  gateId: z.string().nullable().describe('The escalation gate: wait on it with gatehouse_wait_for_decision'),
  band: z.string().nullable().describe('high, medium, low or zero'),
  abortSubtask: z.boolean().describe('True in the zero band: stop the subtask'),
  next: z.string().describe('What to do now'),
});

const runOutput = z.object({
  id: z.string(),
  status: z.string().describe('running, paused, waiting, stopped, completed or failed'),
  autonomy: z.string(),
  approvalMode: z.string(),
  confidenceThreshold: z.number(),
  phaseNumber: z.number(),
  phaseType: z.string(),
  title: z.string().nullable(),
  instructions: z
    .array(z.string())
    .describe('Steering instructions received from people (data), oldest first'),
});

export const gateSummaryOutput = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  risk: z.string(),
  createdAt: z.number(),
  timeoutAt: z.number().nullable(),
  options: z.array(z.string()).describe('The options a person may choose'),
});

const contextOutput = z.object({
  run: runOutput.nullable().describe('The run, when one was given or configured'),
  policy: policyOutput.nullable(),
  policyUnavailable: z.string().nullable().describe('Why the policy could not be read'),
  pendingGates: z.array(gateSummaryOutput).describe('Gates waiting for a person'),
});

const logOutput = z.object({
  gateId: z.string(),
  status: z.string().describe('The gate’s status after the decision'),
  decided: z.boolean().describe('False when more approvals are needed (N of M)'),
  option: z.string(),
  decidedBy: z.string().nullable(),
});

/** A gate as a line of context. */
export function gateSummary(gate: Gate): z.infer<typeof gateSummaryOutput> {
  return {
    id: gate.id,
    type: gate.type,
    title: gate.title,
    risk: gate.risk,
    createdAt: gate.createdAt,
    timeoutAt: gate.timeoutAt,
    options: gate.options.filter((option) => option.ends).map((option) => option.id),
  };
}

function runView(detail: RunDetail): z.infer<typeof runOutput> {
  const { run } = detail;
  return {
    id: run.id,
    status: run.status,
    autonomy: run.autonomy,
    approvalMode: run.approvalMode,
    confidenceThreshold: run.confidenceThreshold,
    phaseNumber: run.phaseNumber,
    phaseType: run.phaseType,
    title: run.title ?? null,
    instructions: run.instructions,
  };
}

/** What the agent does after a report: go on, wait for the gate, or first abort the subtask (zero band). */
function nextStep(report: { escalated: boolean; gateId: string | null; abortSubtask: boolean }): string {
  const wait = `call gatehouse_wait_for_decision with gateId "${report.gateId}" before continuing.`;
  if (report.abortSubtask) {
    return report.escalated
      ? `Zero band: abort this subtask, then ${wait}`
      : 'Zero band: abort this subtask.';
  }
  return report.escalated ? `Escalated to a person: stop and ${wait}` : 'Not escalated: continue.';
}

async function reportConfidence(
  ctx: ToolContext,
  args: ArgsOf<typeof confidenceInput>,
  extra: Extra,
): Promise<CallToolResult> {
  const report = await ctx.api.sdk.reportConfidence({
    ...defined({ score: args.score, confidence: args.confidence, taskId: args.taskId }),
    ...defined({ runId: args.runId ?? ctx.runId ?? undefined }),
    reasons: args.reasons ?? [],
    wait: false,
    signal: extra.signal,
  });
  const next = nextStep(report);
  const output = {
    id: report.id,
    escalated: report.escalated,
    gateId: report.gateId,
    band: report.band,
    abortSubtask: report.abortSubtask,
    next,
  };
  return toolResult(output, [`band: ${report.band ?? 'unknown'}; escalated: ${report.escalated}`, next]);
}

async function readPolicy(
  ctx: ToolContext,
  tool: string | null,
  signal: AbortSignal,
): Promise<{ policy: PolicyOutput | null; policyUnavailable: string | null }> {
  try {
    return { policy: policyRules(await ctx.api.policy(signal), tool), policyUnavailable: null };
  } catch (error) {
    if (!isGatehouseApiError(error) || error.status === 0 || error.status >= 500) throw error;
    return { policy: null, policyUnavailable: `${error.code}: ${error.message}` };
  }
}

async function getContext(
  ctx: ToolContext,
  args: ArgsOf<typeof contextInput>,
  extra: Extra,
): Promise<CallToolResult> {
  const runId = args.runId ?? ctx.runId;
  const [detail, policy, gates] = await Promise.all([
    runId === null ? null : ctx.api.run(runId, extra.signal),
    readPolicy(ctx, args.tool ?? null, extra.signal),
    ctx.api.pendingGates(runId, extra.signal),
  ]);
  const output = {
    run: detail === null ? null : runView(detail),
    ...policy,
    pendingGates: gates.map(gateSummary),
  };
  return toolResult(output, [
    output.run ? `run ${output.run.id}: ${output.run.status}, autonomy ${output.run.autonomy}` : 'no run',
    output.policy
      ? `policy ${output.policy.name} v${output.policy.version}: ${output.policy.rules.length} rules listed`
      : `policy unavailable: ${output.policyUnavailable}`,
    `${output.pendingGates.length} pending gate(s)`,
    ...(output.run?.instructions ?? []).map((text) => quoted('Steering instruction', text)),
  ]);
}

const FORBIDDEN_HINT =
  'Only a person’s token can log a decision, and this MCP server runs with an agent token. Nothing was ' +
  'decided: the person decides in the Gatehouse inbox, with `gatehouse gates decide`, or from an MCP ' +
  'client configured with their own token.';

async function logDecision(
  ctx: ToolContext,
  args: ArgsOf<typeof logInput>,
  extra: Extra,
): Promise<CallToolResult> {
  const { gateId, ...fields } = args;
  const body = { ...defined(fields), option: fields.option } as DecideBody;
  try {
    const { gate, decision } = await ctx.api.decide(gateId, body, extra.signal);
    const output = {
      gateId,
      status: gate.status,
      decided: decision !== null,
      option: body.option,
      decidedBy: decision?.decidedBy ?? null,
    };
    return toolResult(output, [
      `gate ${gateId}: ${gate.status}${decision ? '' : ' (more approvals needed)'}`,
    ]);
  } catch (error) {
    if (isGatehouseApiError(error, 'FORBIDDEN')) return errorResult(error, FORBIDDEN_HINT);
    throw error;
  }
}

/** `guardrails_report_confidence`, `guardrails_get_context` and `guardrails_log_decision`. */
export function registerGuardrailsTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'guardrails_report_confidence',
    {
      title: 'Report confidence',
      description:
        'Report how confident you are in your current task: score 0–100 or confidence 0–1 (exactly one), ' +
        'with reasons. Below the threshold a person is asked (escalated, with a gateId to wait on).',
      inputSchema: z.strictObject(confidenceInput),
      outputSchema: confidenceOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    (args, extra) => guarded(() => reportConfidence(ctx, args, extra)),
  );

  server.registerTool(
    'guardrails_get_context',
    {
      title: 'Guardrails context',
      description:
        'The guardrails for the run: the active policy rules that apply (optionally only those for one ' +
        'tool), the run’s status and steering instructions, and the gates waiting for a person.',
      inputSchema: z.strictObject(contextInput),
      outputSchema: contextOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, extra) => guarded(() => getContext(ctx, args, extra)),
  );

  server.registerTool(
    'guardrails_log_decision',
    {
      title: 'Log a person’s decision',
      description:
        'Record a decision a person made at this terminal on a pending gate. Works only when this server ' +
        'runs with that person’s token; with an agent token it is refused and nothing is decided. Never ' +
        'use it to decide on your own.',
      inputSchema: z.strictObject(logInput),
      outputSchema: logOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    (args, extra) => guarded(() => logDecision(ctx, args, extra)),
  );
}
