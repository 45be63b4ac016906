import type { ChangeFacts, FileChange } from 'gatehouse-hitl-analysis';
import { destructiveContextOfChange, type Gate, type TriggerEvaluation } from 'gatehouse-hitl-core';
import type { RecoveryRecord } from 'gatehouse-hitl-store';
import type { CommitTools } from '../commit.js';
import type { GateService } from '../types.js';
import { changesOf, findingHunk, withHunks } from './finding-hunks.js';
import type { KeyedFinding } from './findings.js';

/** Who asks and for which action: a run's agent with its tool call, or a person reporting. */
export interface GateOrigin {
  runId: string | null;
  agentId: string | null;
  requestedBy: string;
  action?: { tool: string; args: Record<string, unknown> } | undefined;
}

/** The seed's audit record fields known when the gate opens; the decision adds decision, reason and time spent. */
function auditContext(
  gate: string,
  trigger: readonly string[],
  pattern: string | null,
  attempts: number | null,
) {
  return { auditContext: { gate, trigger: [...trigger], pattern, attempts } };
}

function attemptLine(attempt: RecoveryRecord['history'][number], about = ''): string {
  return `Attempt ${attempt.attempt}${about}: ${attempt.message} (line ${attempt.line ?? '—'})`;
}

/** The run's recoveries of these files, attempt by attempt, for the briefing of a gate about them. */
async function recoveryHistoryOf(
  tools: CommitTools,
  runId: string | null,
  where: { key?: string; files: readonly string[] },
): Promise<string[]> {
  if (runId === null) return [];
  const recoveries = (await tools.tx.listRecoveries(runId)).filter((recovery) =>
    where.key === undefined ? where.files.includes(recovery.file) : recovery.key === where.key,
  );
  return recoveries.flatMap((recovery) =>
    recovery.history.map((attempt) =>
      attemptLine(
        attempt,
        where.key === undefined ? ` (${recovery.pattern} in ${recovery.file}, ${recovery.status})` : '',
      ),
    ),
  );
}

function open(
  gates: GateService,
  tools: CommitTools,
  origin: GateOrigin,
  gate: {
    type: string;
    title: string;
    context: Record<string, unknown>;
    risk?: 'critical' | undefined;
  },
): Promise<Gate> {
  return gates.openInCommit(tools, {
    type: gate.type,
    runId: origin.runId ?? undefined,
    agentId: origin.agentId,
    requestedBy: origin.requestedBy,
    title: gate.title,
    context: gate.context,
    ...(gate.risk === undefined ? {} : { risk: gate.risk }),
    ...(origin.action === undefined ? {} : { tool: origin.action.tool, args: origin.action.args }),
  });
}

/** A `destructive_action` gate with the change's facts and its destructive findings, for the briefing. */
export async function openDestructiveGate(
  gates: GateService,
  tools: CommitTools,
  origin: GateOrigin,
  change: {
    facts: ChangeFacts;
    evaluation: TriggerEvaluation;
    findings: readonly KeyedFinding[];
    /** The files the change was analysed from: each finding's hunk, and the diff when the agent sent none. */
    files?: readonly FileChange[] | undefined;
  },
): Promise<Gate> {
  const files = change.files ?? [];
  const findings = withHunks(
    change.findings.filter((finding) => finding.kind !== 'laziness'),
    files,
  );
  const paths = [...new Set(findings.map((finding) => finding.file))];
  const recoveryHistory = await recoveryHistoryOf(tools, origin.runId, { files: paths });
  const changes = changesOf(files, paths, origin.action?.args);
  return open(gates, tools, origin, {
    type: 'destructive_action',
    title: `Destructive change: ${change.evaluation.reasons.join('; ')}`.slice(0, 200),
    context: {
      ...destructiveContextOfChange(change.facts),
      triggerRules: change.evaluation.rules,
      reasons: change.evaluation.reasons,
      files: paths,
      findings,
      coverageReported: change.facts.coverageDelta !== null,
      ...(changes.length === 0 ? {} : { changes }),
      ...(recoveryHistory.length === 0 ? {} : { recoveryHistory }),
      ...auditContext('destructive_action', change.evaluation.rules, findings[0]?.pattern ?? null, null),
    },
  });
}

/** A `recovery_escalation` gate for one finding the agent did not fix, with its attempts. */
export function openRecoveryGate(
  gates: GateService,
  tools: CommitTools,
  origin: GateOrigin,
  escalation: {
    recovery: RecoveryRecord;
    evaluation: TriggerEvaluation;
    finding: KeyedFinding;
    files?: readonly FileChange[] | undefined;
  },
): Promise<Gate> {
  const { recovery, evaluation, finding } = escalation;
  const files = escalation.files ?? [];
  const hunk = findingHunk(finding, files);
  const changes = changesOf(files, [recovery.file], origin.action?.args);
  const critical = recovery.severity === 'critical';
  return open(gates, tools, origin, {
    type: 'recovery_escalation',
    title: `Recovery escalation: ${finding.pattern} in ${finding.file}`.slice(0, 200),
    ...(critical ? { risk: 'critical' as const } : {}),
    context: {
      findingKey: recovery.key,
      pattern: recovery.pattern,
      severity: recovery.severity.toUpperCase(),
      files: [recovery.file],
      line: finding.line,
      name: finding.name,
      message: finding.message,
      ...(hunk === null ? {} : { hunk }),
      ...(changes.length === 0 ? {} : { changes }),
      recoveryAttempts: recovery.attempts,
      maxAttempts: 3,
      reasons: evaluation.reasons,
      triggerRules: evaluation.rules,
      infiniteLoopDetected: evaluation.rules.includes('infinite_loop'),
      nonDeterministicFailure: evaluation.rules.includes('non_deterministic_failure'),
      recoveryHistory: recovery.history.map((attempt) => attemptLine(attempt)),
      ...auditContext('recovery_escalation', evaluation.rules, recovery.pattern, recovery.attempts),
    },
  });
}

/** A `false_positive_override` gate: the detection was unsure, or a person reported it wrong. */
export async function openFalsePositiveGate(
  gates: GateService,
  tools: CommitTools,
  origin: GateOrigin,
  report: {
    finding: Pick<KeyedFinding, 'key' | 'pattern' | 'file' | 'line' | 'name'> & {
      kind?: KeyedFinding['kind'] | undefined;
      message?: string | undefined;
      confidence?: number | undefined;
    };
    evaluation: TriggerEvaluation;
    files?: readonly FileChange[] | undefined;
    reportedBy?: string | undefined;
    reason?: string | undefined;
  },
): Promise<Gate> {
  const { finding, evaluation } = report;
  const files = report.files ?? [];
  const hunk = findingHunk({ ...finding, kind: finding.kind ?? 'laziness' }, files);
  const changes = changesOf(files, [finding.file], origin.action?.args);
  const recoveryHistory = await recoveryHistoryOf(tools, origin.runId, {
    key: finding.key,
    files: [finding.file],
  });
  return open(gates, tools, origin, {
    type: 'false_positive_override',
    title: `Possible false positive: ${finding.pattern} in ${finding.file}`.slice(0, 200),
    context: {
      findingKey: finding.key,
      pattern: finding.pattern,
      files: [finding.file],
      line: finding.line,
      name: finding.name,
      ...(finding.message === undefined ? {} : { message: finding.message }),
      ...(hunk === null ? {} : { hunk }),
      ...(changes.length === 0 ? {} : { changes }),
      ...(finding.confidence === undefined ? {} : { detectionConfidence: finding.confidence }),
      falsePositiveReported: report.reportedBy !== undefined,
      ...(report.reportedBy === undefined ? {} : { reportedBy: report.reportedBy }),
      ...(report.reason === undefined ? {} : { report: report.reason }),
      reasons: evaluation.reasons,
      triggerRules: evaluation.rules,
      ...(recoveryHistory.length === 0 ? {} : { recoveryHistory }),
      ...auditContext('false_positive_override', evaluation.rules, finding.pattern, null),
    },
  });
}
