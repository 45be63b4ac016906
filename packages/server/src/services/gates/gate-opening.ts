import {
  type Action,
  type Gate,
  gateAuditView,
  isWorkspacePath,
  openGate,
  payloadText,
  type Role,
} from 'gatehouse-hitl-core';
import { sha256Hex } from '../../auth/secrets.js';
import type { CommitTools } from '../commit.js';
import type { GateOpenInput } from '../types.js';
import { announce, cleanContext, type GateDeps, gateTitle } from './gate-common.js';
import { invalidInput } from './gate-input.js';
import { refreshRunStatus } from './gate-run.js';

/** SHA-256 of the action's canonical text: what approvals bind to. */
export function payloadHashOf(action: Action): string {
  return sha256Hex(payloadText(action));
}

/** Workspace-relative artifact paths, or VALIDATION_FAILED naming the first bad one. */
export function checkArtifacts(artifacts: readonly string[] | undefined): string[] {
  const paths = artifacts ?? [];
  paths.forEach((path, index) => {
    if (!isWorkspacePath(path)) {
      throw invalidInput(
        `artifacts[${index}]`,
        `must be a relative path inside the workspace (got ${JSON.stringify(path)})`,
      );
    }
  });
  return [...paths];
}

/** What the reviewer of `gate` saw, redacted by the policy's `redact` section and the built-in rules. */
function auditViewOf(deps: Pick<GateDeps, 'policies'>, gate: Gate, extra: Record<string, unknown>) {
  // A title made from the action is made again from the redacted action, so no cut-off secret is left in it.
  const derived = gate.action !== null && gate.title === gateTitle(undefined, gate.action);
  return gateAuditView(gate, deps.policies.current().policy.redact, {
    titleOf: derived ? (action) => gateTitle(undefined, action) : undefined,
    extra,
  });
}

/**
 * Inserts a new gate with its audit event and stream event, and marks its run `waiting`. The
 * event records what the reviewer saw (action, arguments, context, briefing), redacted; a traced
 * request's context is kept with the gate.
 */
export async function insertOpenedGate(
  deps: Pick<GateDeps, 'policies'>,
  tools: CommitTools,
  gate: Gate,
  audit: Record<string, unknown> = {},
  traceContext: string | null = null,
): Promise<void> {
  await tools.tx.insertGate(gate);
  if (traceContext !== null) await tools.tx.setGateTraceContext(gate.id, traceContext);
  const seen = auditViewOf(deps, gate, audit);
  await tools.audit({
    kind: 'gate.opened',
    actor: gate.requestedBy ?? 'system',
    subject: gate.id,
    data: {
      type: gate.type,
      title: seen.title,
      risk: gate.risk,
      runId: gate.runId,
      agentId: gate.agentId,
      ruleId: gate.policyRuleId,
      payloadHash: gate.payloadHash,
      timeoutAt: gate.timeoutAt,
      timeoutAction: gate.timeoutAction,
      minRole: gate.minRole,
      requiredApprovals: gate.requiredApprovals,
      signatureRequired: gate.signatureRequired,
      ...seen.extra,
      tool: seen.tool,
      operation: seen.operation,
      args: seen.args,
      context: seen.context,
      briefing: seen.briefing,
    },
  });
  await announce(tools, 'gate.opened', gate, { title: gate.title, risk: gate.risk });
  await refreshRunStatus(tools, gate.runId, gate);
}

function actionOfInput(input: GateOpenInput): Action | null {
  if (input.tool === undefined && input.operation === undefined) return null;
  return {
    ...(input.tool === undefined ? {} : { tool: input.tool }),
    ...(input.operation === undefined ? {} : { operation: input.operation }),
    args: input.args ?? {},
  };
}

/** Opens a gate the server itself raises (phase review, confidence escalation) inside the caller's commit. */
export async function openDirectGate(
  deps: GateDeps,
  tools: CommitTools,
  input: GateOpenInput,
  options: { minRole?: Role | undefined } = {},
): Promise<Gate> {
  const action = actionOfInput(input);
  const gate = openGate(
    {
      type: input.type,
      title: gateTitle(input.title, action),
      risk: input.risk,
      timeoutMs: input.timeoutSeconds === undefined ? null : input.timeoutSeconds * 1000,
      timeoutAction: input.timeoutAction,
      minRole: options.minRole,
      action,
      payloadHash: action === null ? null : payloadHashOf(action),
      context: cleanContext(input.context),
      artifacts: checkArtifacts(input.artifacts),
      confidence: input.confidence ?? null,
      requestedBy: input.requestedBy,
      runId: input.runId ?? null,
      agentId: input.agentId,
    },
    { now: tools.tx.now, id: deps.ctx.ids.next('gate'), catalog: deps.catalog },
  );
  await insertOpenedGate(deps, tools, gate);
  return gate;
}
