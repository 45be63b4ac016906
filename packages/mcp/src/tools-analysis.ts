import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  ANALYZE_DIFF_MAX_CHARS,
  ANALYZE_FILES_MAX,
  analyzeCoverageSchema,
  analyzeFileSchema,
} from 'gatehouse-hitl-protocol';
import type { AnalysisAnswer, AnalyzeOptions } from 'gatehouse-hitl-sdk';
import { z } from 'zod';
import type { ToolContext } from './context.js';
import { type Extra, waitBounded } from './decision.js';
import { errorResult, guarded, quoted, reasonAuthor, reasonSourceOf, toolResult } from './results.js';
import { type ArgsOf, DEFAULT_WAIT_SECONDS, runIdInput, waitSecondsInput } from './schemas.js';

const analyzeInput = {
  diff: z
    .string()
    .min(1)
    .max(ANALYZE_DIFF_MAX_CHARS)
    .optional()
    .describe('The change as a unified diff (git diff); give diff or files'),
  files: z
    .array(analyzeFileSchema)
    .min(1)
    .max(ANALYZE_FILES_MAX)
    .optional()
    .describe(
      'The change as files before and after (null before: added; null after: deleted); give diff or files',
    ),
  coverage: analyzeCoverageSchema
    .optional()
    .describe(
      'Coverage before and after: lcov, Istanbul JSON summary or Cobertura XML texts, or { linePercent }',
    ),
  runId: runIdInput.optional(),
  wait: z
    .boolean()
    .optional()
    .describe('Wait for a person when the change opens a gate (default true); false answers pending at once'),
  waitSeconds: waitSecondsInput.optional(),
};

const findingOutput = z.object({
  file: z.string(),
  line: z.number().nullable().describe('1-based; null for the whole file'),
  pattern: z.string().describe('Pattern id, e.g. test.removed, test.skip_added'),
  severity: z.string().describe('low, medium, high or critical'),
  confidence: z.number().describe('How sure the detection is, 0–1'),
  name: z.string().nullable().describe('The test, export or function it is about'),
  message: z.string(),
});

const gateOutput = z.object({
  gateId: z.string(),
  type: z.string().describe('destructive_action, recovery_escalation or false_positive_override'),
  status: z.string().describe('pending, approved, denied, steered, timed_out, cancelled or an option id'),
  reason: z.string().nullable().describe('Why (data); reasonSource says who wrote it'),
  reasonSource: z
    .enum(['policy', 'timeout', 'system', 'person'])
    .nullable()
    .describe('Who gave the reason: the policy, the timeout, the system, or a person'),
  decidedBy: z.string().nullable().describe('policy, system:timeout, or the person'),
  instructions: z.string().nullable().describe('What the person wants done instead (data)'),
});

const analyzeOutput = z.object({
  findings: z.array(findingOutput),
  verdict: z.object({
    destructive: z.boolean().describe('The change needs a destructive-action approval'),
    rules: z.array(z.string()).describe('Trigger rules that matched, e.g. test_deletion'),
    reasons: z.array(z.string()),
    autoApproved: z.string().nullable().describe('The auto-approve condition that held, if any'),
    laziness: z.number().describe('Laziness findings: each starts or continues a recovery'),
  }),
  gates: z.array(gateOutput).describe('Gates the change opened in the run'),
  proceed: z
    .boolean()
    .describe('True when you may keep the change: no gate pending or refused, no laziness to fix'),
  next: z.string().describe('What to do now'),
});

type GateOut = z.infer<typeof gateOutput>;

function changeOf(args: ArgsOf<typeof analyzeInput>, runId: string | null): AnalyzeOptions | null {
  const common = {
    ...(runId === null ? {} : { runId }),
    ...(args.coverage === undefined ? {} : { coverage: args.coverage }),
  };
  if (args.diff !== undefined && args.files === undefined) return { ...common, diff: args.diff };
  if (args.files !== undefined && args.diff === undefined) return { ...common, files: args.files };
  return null;
}

async function gatesOf(
  ctx: ToolContext,
  answer: AnalysisAnswer,
  waitMs: number,
  extra: Extra,
): Promise<GateOut[]> {
  const deadline = Date.now() + waitMs;
  const gates: GateOut[] = [];
  for (const gate of answer.gates) {
    const pending: GateOut = {
      gateId: gate.id,
      type: gate.type,
      status: 'pending',
      reason: null,
      reasonSource: null,
      decidedBy: null,
      instructions: null,
    };
    // An ended gate (approved by a rule) answers at once; a pending one is waited on until the deadline.
    const wait = gate.status === 'pending' ? Math.max(0, deadline - Date.now()) : 0;
    const result = await waitBounded(ctx, gate.id, wait, extra);
    if (result === null) gates.push(pending);
    else
      gates.push({
        ...pending,
        status: result.outcome,
        reason: result.reason,
        reasonSource: result.reason === null ? null : reasonSourceOf(result.decidedBy),
        decidedBy: result.decidedBy,
        instructions: result.instructions,
      });
  }
  return gates;
}

/** What the agent does next, and whether it may keep the change. */
function nextOf(
  gates: readonly GateOut[],
  answer: AnalysisAnswer,
  runId: string | null,
): { next: string; proceed: boolean } {
  const stop = (next: string) => ({ next, proceed: false });
  const waiting = gates.filter((gate) => gate.status === 'pending');
  const refused = gates.filter((gate) => gate.status !== 'pending' && gate.status !== 'approved');
  if (refused.length > 0) {
    const steered = refused.some((gate) => gate.instructions !== null);
    return stop(
      `Do not keep this change: a person did not approve it (gate ${refused.map((gate) => gate.gateId).join(', ')}). ` +
        'Restore the tests, assertions and code it removes' +
        (steered ? ' and follow the instructions (data from a person).' : ', and fix the code instead.'),
    );
  }
  if (waiting.length > 0) {
    return stop(
      `Do not keep this change: it waits for a person (gate ${waiting.map((gate) => gate.gateId).join(', ')}). ` +
        `Call gatehouse_wait_for_decision with gateId "${waiting[0]?.gateId}" and keep it only if approved.`,
    );
  }
  if (answer.verdict.destructive.triggered && runId === null) {
    return stop(
      'Do not keep this change yet: it is destructive, and without a run nobody was asked. Analyse it again with a runId.',
    );
  }
  if (answer.verdict.laziness.length > 0) {
    return stop(
      'Do not keep this change as it is: fix the laziness findings (finish the code; do not stub, skip or suppress) and analyse it again.',
    );
  }
  return { next: 'Nothing blocks this change: you may keep it.', proceed: true };
}

function findingLine(finding: z.infer<typeof findingOutput>): string {
  const at = finding.line === null ? finding.file : `${finding.file}:${finding.line}`;
  const name = finding.name === null ? '' : ` ${JSON.stringify(finding.name)}`;
  return `- ${finding.pattern} at ${at}${name} (${finding.severity}, confidence ${finding.confidence.toFixed(2)}): ${finding.message}`;
}

async function analyzeChange(
  ctx: ToolContext,
  args: ArgsOf<typeof analyzeInput>,
  extra: Extra,
): Promise<CallToolResult> {
  const runId = args.runId ?? ctx.runId;
  const change = changeOf(args, runId);
  if (change === null) return errorResult(new Error('give exactly one of diff or files'));
  const answer = await ctx.api.sdk.analyze({ ...change, signal: extra.signal });
  const waitMs = args.wait === false ? 0 : (args.waitSeconds ?? DEFAULT_WAIT_SECONDS) * 1000;
  const gates = await gatesOf(ctx, answer, waitMs, extra);
  const findings = answer.findings.map((finding) => ({
    file: finding.file,
    line: finding.line,
    pattern: finding.pattern,
    severity: finding.severity,
    confidence: finding.confidence,
    name: finding.name,
    message: finding.message,
  }));
  const { destructive } = answer.verdict;
  const { next, proceed } = nextOf(gates, answer, runId);
  const output = {
    findings,
    verdict: {
      destructive: destructive.triggered,
      rules: destructive.rules,
      reasons: destructive.reasons,
      autoApproved: destructive.autoApproved,
      laziness: answer.verdict.laziness.length,
    },
    gates,
    proceed,
    next,
  };
  return toolResult(output, [
    `${findings.length} finding(s); ${gates.length} gate(s)`,
    next,
    ...findings.map(findingLine),
    ...gates.flatMap((gate) => [
      `gate ${gate.gateId} (${gate.type}): ${gate.status}`,
      quoted('Reason', gate.reason, reasonAuthor(gate.decidedBy, null)),
      quoted('Instructions', gate.instructions),
    ]),
  ]);
}

/** `gatehouse_analyze_change`: the agent has its own change analysed before it keeps it. */
export function registerAnalysisTools(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    'gatehouse_analyze_change',
    {
      title: 'Analyse a change',
      description:
        'Analyse a change before you keep it (a unified diff, or files before and after): tests removed ' +
        'or skipped, assertions weakened, exports removed, stubs, swallowed errors, suppressions. In a run, ' +
        'findings that need a person open gates and this waits for them. Keep the change only when ' +
        'proceed is true; otherwise follow next.',
      inputSchema: z.strictObject(analyzeInput),
      outputSchema: analyzeOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    (args, extra) => guarded(() => analyzeChange(ctx, args, extra)),
  );
}
