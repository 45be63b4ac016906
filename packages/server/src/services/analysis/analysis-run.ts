import type { ChangeFacts, FileChange } from 'gatehouse-hitl-analysis';
import {
  advanceRecovery,
  assertRunMayAct,
  evaluateTrigger,
  type Gate,
  resolveRecovery,
  type TriggerEvaluation,
} from 'gatehouse-hitl-core';
import type { Principal } from '../../http/principal.js';
import type { CommitTools } from '../commit.js';
import { assertWritten } from '../lost-update.js';
import { assertActive, assertOwnRun, currentHold, loadRun } from '../runs/run-records.js';
import type { GateService } from '../types.js';
import { openOrMergeDestructive } from './analysis-destructive.js';
import { type ReportedTest, recordReportedTests } from './analysis-flaky.js';
import { type GateOrigin, openFalsePositiveGate, openRecoveryGate } from './analysis-gates.js';
import { fingerprintOf, isLowConfidence, type KeyedFinding, recoverable } from './findings.js';

/** What the run's audit trail and stream say of one finding. */
function findingDetail(finding: KeyedFinding) {
  const { key, kind, pattern, severity, confidence, file, line, name, message } = finding;
  return { key, kind, pattern, severity, confidence, file, line, name, message };
}

/** One analysed change of a run, ready to be recorded. */
export interface RunChange {
  runId: string;
  files: readonly FileChange[];
  findings: readonly KeyedFinding[];
  facts: ChangeFacts;
  destructive: TriggerEvaluation;
  action?: { tool: string; args: Record<string, unknown> } | undefined;
  /** Test results the agent saw after the change. */
  tests?: readonly ReportedTest[] | undefined;
  /**
   * The server analyses what the agent pushed: not an act of the agent, so a run frozen for its phase
   * review still has the change judged (a push analysed late must never escape its gates).
   */
  pushed?: boolean | undefined;
}

async function advanceRecoveries(
  gates: GateService,
  tools: CommitTools,
  origin: GateOrigin & { runId: string },
  change: RunChange,
  skip: ReadonlySet<string>,
): Promise<Gate[]> {
  const { tx } = tools;
  const opened: Gate[] = [];
  for (const finding of change.findings.filter(recoverable)) {
    if (skip.has(finding.key)) continue;
    const stored = await tx.getRecovery(origin.runId, finding.key);
    const fingerprint = fingerprintOf(change.files, finding.file);
    const step = advanceRecovery(stored, finding, { runId: origin.runId, fingerprint, now: tx.now });
    let next = step.next;
    if (step.escalation !== null) {
      const gate = await openRecoveryGate(gates, tools, origin, {
        recovery: next,
        evaluation: step.escalation,
        finding,
        files: change.files,
      });
      next = { ...next, gateId: gate.id };
      opened.push(gate);
    }
    if (stored === null) await tx.insertRecovery(next);
    else assertWritten(await tx.updateRecovery(next, stored.version), { kind: 'run', id: origin.runId });
  }
  return opened;
}

/** Recoveries of findings gone from files this change touched: the agent fixed them. */
async function resolveGone(tools: CommitTools, change: RunChange): Promise<void> {
  const { tx } = tools;
  const touched = new Set(change.files.map((file) => file.path));
  const present = new Set(change.findings.map((finding) => finding.key));
  for (const recovery of await tx.listRecoveries(change.runId)) {
    if (recovery.status === 'resolved' || !touched.has(recovery.file) || present.has(recovery.key)) continue;
    const stored = await tx.getRecovery(change.runId, recovery.key);
    if (stored === null) continue;
    const fingerprint = fingerprintOf(change.files, recovery.file);
    assertWritten(
      await tx.updateRecovery(resolveRecovery(stored, { fingerprint, now: tx.now }), stored.version),
      {
        kind: 'run',
        id: change.runId,
      },
    );
  }
}

/** Findings already waiting on a person's word about a false positive, so none opens twice. */
async function pendingReviews(tools: CommitTools, runId: string): Promise<Set<string>> {
  const page = await tools.tx.listGates({
    runId,
    type: 'false_positive_override',
    status: 'pending',
    limit: 500,
  });
  return new Set(page.items.map((gate) => gate.context.findingKey).filter((key) => typeof key === 'string'));
}

async function openLowConfidence(
  gates: GateService,
  tools: CommitTools,
  origin: GateOrigin & { runId: string },
  change: RunChange,
  skip: ReadonlySet<string>,
): Promise<Gate[]> {
  const pending = await pendingReviews(tools, origin.runId);
  const opened: Gate[] = [];
  for (const finding of change.findings.filter(isLowConfidence)) {
    if (skip.has(finding.key) || pending.has(finding.key)) continue;
    pending.add(finding.key);
    const evaluation = evaluateTrigger('false_positive_override', {
      detectionConfidence: finding.confidence,
    });
    opened.push(
      await openFalsePositiveGate(gates, tools, origin, { finding, evaluation, files: change.files }),
    );
  }
  return opened;
}

/**
 * Records an analysis in its run, for the run's own agent: a destructive change opens its gate,
 * laziness findings advance their recoveries (escalating by core's rules), unsure findings go to a person.
 */
export async function recordRunChange(
  gates: GateService,
  tools: CommitTools,
  principal: Principal,
  change: RunChange,
): Promise<Gate[]> {
  const { tx } = tools;
  const run = await loadRun(tx, change.runId);
  const agentId = assertOwnRun(principal, run);
  assertActive(run);
  if (change.pushed !== true) assertRunMayAct(run.id, currentHold(run), 'confidence_report');
  const origin = { runId: run.id, agentId, requestedBy: `agent:${agentId}`, action: change.action };
  const confirmed = new Set(
    (await tx.listFalsePositives({ runId: run.id })).map((record) => record.findingKey),
  );
  const opened: Gate[] = [];
  if (change.destructive.trigger) {
    opened.push(
      await openOrMergeDestructive(gates, tools, origin, {
        facts: change.facts,
        evaluation: change.destructive,
        findings: change.findings,
        files: change.files,
      }),
    );
  }
  opened.push(...(await advanceRecoveries(gates, tools, origin, change, confirmed)));
  await resolveGone(tools, change);
  opened.push(
    ...(await recordReportedTests(gates, tools, origin, { files: change.files, tests: change.tests ?? [] })),
  );
  opened.push(...(await openLowConfidence(gates, tools, origin, change, confirmed)));
  const gateIds = opened.map((gate) => gate.id);
  await tools.audit({
    kind: 'analysis.recorded',
    actor: `agent:${agentId}`,
    subject: run.id,
    data: {
      runId: run.id,
      facts: change.facts,
      findings: change.findings.map((finding) => finding.key),
      findingDetails: change.findings.map(findingDetail),
      destructive: change.destructive.rules,
      autoApproved: change.destructive.autoApproved ?? null,
      gates: gateIds,
    },
  });
  // The run page follows findings and recovery attempts live, also when no gate opens.
  await tools.emit({
    type: 'analysis.recorded',
    runId: run.id,
    agentId,
    gateId: null,
    data: {
      findings: change.findings.map(findingDetail),
      destructive: change.destructive.rules,
      gates: gateIds,
    },
  });
  return opened;
}
