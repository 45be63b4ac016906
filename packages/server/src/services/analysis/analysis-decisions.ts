import { type Gate, resetRecoveryAttempts } from 'gatehouse-hitl-core';
import type { AppContext } from '../../context.js';
import type { CommitTools } from '../commit.js';
import { assertWritten } from '../lost-update.js';

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

async function resetFinding(tools: CommitTools, runId: string, key: string): Promise<void> {
  const { tx } = tools;
  const stored = await tx.getRecovery(runId, key);
  if (stored === null) return;
  const { version, ...recovery } = stored;
  assertWritten(await tx.updateRecovery(resetRecoveryAttempts(recovery, tx.now), version), {
    kind: 'run',
    id: runId,
  });
}

async function confirmFalsePositive(
  ctx: AppContext,
  tools: CommitTools,
  gate: Gate,
  key: string,
): Promise<void> {
  const decision = gate.decision;
  if (decision === null) return;
  const files = gate.context.files;
  await tools.tx.insertFalsePositive({
    id: ctx.ids.next('fp'),
    pattern: text(gate.context.pattern) ?? key.split('|')[0] ?? key,
    runId: gate.runId,
    findingKey: key,
    file: Array.isArray(files) && typeof files[0] === 'string' ? files[0] : '',
    gateId: gate.id,
    confirmedBy: decision.decidedBy,
    createdAt: tools.tx.now,
  });
}

/**
 * A person ended a gate the analysis opened: `retry` on a recovery escalation resets that finding's
 * attempts, `legitimate` on a false-positive gate keeps the finding as a confirmed false positive,
 * and the audit trail gets the seed's decision record (gate, trigger, pattern, attempts, decision,
 * reason, time spent).
 */
export async function recordAnalysisDecision(ctx: AppContext, tools: CommitTools, gate: Gate): Promise<void> {
  const key = text(gate.context.findingKey);
  const decision = gate.decision;
  const audit = gate.context.auditContext;
  if (decision === null || typeof audit !== 'object' || audit === null) return;
  if (
    key !== null &&
    gate.runId !== null &&
    gate.type === 'recovery_escalation' &&
    decision.option === 'retry'
  )
    await resetFinding(tools, gate.runId, key);
  if (key !== null && gate.type === 'false_positive_override' && decision.option === 'legitimate')
    await confirmFalsePositive(ctx, tools, gate, key);
  await tools.audit({
    kind: 'analysis.decided',
    actor: decision.decidedBy,
    subject: gate.id,
    data: {
      ...(audit as Record<string, unknown>),
      findingKey: key,
      runId: gate.runId,
      decision: decision.option,
      reason: decision.reason ?? decision.feedback ?? null,
      timeSpentSeconds: Math.max(0, Math.round((decision.decidedAt - gate.createdAt) / 1000)),
    },
  });
}
