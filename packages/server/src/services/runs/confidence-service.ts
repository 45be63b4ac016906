import {
  assertRunMayAct,
  type ConfidenceBand,
  type ConfidenceConfig,
  type ConfidenceReport,
  confidenceDiagnostics,
  evaluateConfidenceReport,
  type Gate,
  GatehouseError,
  loadConfidenceConfig,
  normalizeConfidence,
  resolveConfidenceConfig,
  revealText,
  sanitizeText,
} from 'gatehouse-hitl-core';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { type CommitTools, commit } from '../commit.js';
import type { GateService } from '../types.js';
import { assertOwnRun, currentHold, loadRun, type RunDocument } from './run-records.js';

/** A self-assessment: exactly one of `score` (0–100) or `confidence` (0–1). */
export interface ConfidenceInput {
  runId?: string | undefined;
  score?: number | undefined;
  confidence?: number | undefined;
  reasons?: string[] | undefined;
  taskId?: string | undefined;
}

/** What a report led to. */
export interface ConfidenceResult {
  id: string;
  /** 0–1. */
  confidence: number;
  band: ConfidenceBand;
  /** The threshold (0–100) the report was held against. */
  threshold: number;
  escalated: boolean;
  /** True in the zero band: the agent stops the subtask; the gate presents diagnostics. */
  abortSubtask: boolean;
  gateId: string | null;
  reason: string;
}

/** Confidence reports of agents; low ones escalate to a `confidence_threshold` gate. */
export interface ConfidenceService {
  report(principal: Principal, input: ConfidenceInput): Promise<ConfidenceResult>;
}

/** Runs the reports may still be filed on: not stopped, completed or failed. */
function assertReportable(run: RunDocument): void {
  if (run.status === 'stopped') {
    throw new GatehouseError('RUN_STOPPED', `run ${run.id} was stopped; no further requests are allowed`, {
      runId: run.id,
      status: run.status,
    });
  }
  if (run.status === 'completed' || run.status === 'failed') {
    throw new GatehouseError('RUN_NOT_ACTIVE', `run ${run.id} is ${run.status}`, {
      runId: run.id,
      status: run.status,
    });
  }
}

/** A run created with its own threshold (0–1) applies it to reports too, on the 0–100 scale, but only to raise it. */
function configFor(global: ConfidenceConfig, run: RunDocument | null): ConfidenceConfig {
  const raised = run?.confidenceThresholdSet === true && run.confidenceThreshold * 100 > global.threshold;
  const runOverride = raised ? { threshold: run.confidenceThreshold * 100 } : null;
  return resolveConfidenceConfig(global, null, runOverride);
}

function percent(confidence: number): number {
  return Math.round(confidence * 1000) / 10;
}

/** How many of the run's earlier reports the zero band's diagnostics list. */
const EARLIER_REPORTS_SHOWN = 5;

/** The zero band's diagnostics: the aborted subtask and the run's last few reports before this one. */
async function diagnosticsOf(tx: CommitTools['tx'], report: ConfidenceReport): Promise<string[]> {
  const earlier = report.runId === null ? [] : await tx.listConfidenceReports(report.runId);
  return confidenceDiagnostics({
    confidence: report.confidence,
    taskId: report.taskId,
    earlier: earlier.filter((other) => other.id !== report.id).slice(-EARLIER_REPORTS_SHOWN),
  });
}

async function escalate(
  gates: GateService,
  tools: CommitTools,
  report: ConfidenceReport,
  facts: { band: ConfidenceBand; threshold: number; abortSubtask: boolean },
): Promise<Gate> {
  const score = percent(report.confidence);
  const abort = facts.abortSubtask
    ? { action: 'abort_subtask', diagnostics: await diagnosticsOf(tools.tx, report) }
    : {};
  return gates.openInCommit(tools, {
    type: 'confidence_threshold',
    runId: report.runId ?? undefined,
    agentId: report.agentId,
    requestedBy: `agent:${report.agentId}`,
    title: `Confidence ${score} is below the threshold ${facts.threshold}`,
    confidence: report.confidence,
    // A zero-band result aborts the subtask: treat it as high risk.
    ...(facts.abortSubtask ? { risk: 'high' as const } : {}),
    context: {
      score,
      confidence: report.confidence,
      reasons: report.reasons,
      taskId: report.taskId,
      band: facts.band,
      threshold: facts.threshold,
      reportId: report.id,
      ...abort,
    },
  });
}

function reportOf(
  ctx: AppContext,
  facts: { agentId: string; confidence: number; now: number },
  input: ConfidenceInput,
): ConfidenceReport {
  const { agentId, confidence, now } = facts;
  // A task id is matched and filtered on, so it is made machine-safe rather than shown with markers.
  const taskId = input.taskId === undefined ? null : sanitizeText(input.taskId).trim() || null;
  return {
    id: ctx.ids.next('conf'),
    runId: input.runId ?? null,
    agentId,
    taskId,
    confidence,
    reasons: (input.reasons ?? []).map((reason) => revealText(reason, { multiline: true })),
    createdAt: now,
  };
}

/** Creates the confidence service; a broken CONFIDENCE_* environment fails here, at start-up. */
export function createConfidenceService(ctx: AppContext, deps: { gates: GateService }): ConfidenceService {
  const global = loadConfidenceConfig(ctx.config.confidenceEnv);
  return {
    report(principal, input) {
      if (principal.kind !== 'agent') {
        throw new GatehouseError('FORBIDDEN', 'only agent tokens report confidence');
      }
      const confidence = normalizeConfidence({ score: input.score, confidence: input.confidence });
      return commit(ctx, async (tools) => {
        const { tx } = tools;
        const run = input.runId === undefined ? null : await loadRun(tx, input.runId);
        if (run !== null) {
          assertOwnRun(principal, run);
          assertReportable(run);
          assertRunMayAct(run.id, currentHold(run), 'confidence_report');
        }
        const report = reportOf(ctx, { agentId: principal.id, confidence, now: tx.now }, input);
        const config = configFor(global, run);
        const evaluation = evaluateConfidenceReport({ confidence: report.confidence }, config);
        const { band, abortSubtask } = evaluation;
        await tx.insertConfidenceReport(report);
        await tools.audit({
          kind: 'confidence.reported',
          actor: `agent:${principal.id}`,
          subject: report.runId ?? principal.id,
          data: {
            reportId: report.id,
            runId: report.runId,
            taskId: report.taskId,
            confidence: report.confidence,
            band,
            threshold: config.threshold,
            escalate: evaluation.escalate,
            abortSubtask,
            reason: evaluation.reason,
          },
        });
        const gate = evaluation.escalate
          ? await escalate(deps.gates, tools, report, { band, threshold: config.threshold, abortSubtask })
          : null;
        if (gate !== null) {
          await tools.audit({
            kind: 'confidence.escalated',
            actor: `agent:${principal.id}`,
            subject: gate.id,
            data: {
              reportId: report.id,
              runId: report.runId,
              band,
              threshold: config.threshold,
              risk: gate.risk,
            },
          });
        }
        return {
          id: report.id,
          confidence: report.confidence,
          band,
          threshold: config.threshold,
          escalated: gate !== null,
          abortSubtask,
          gateId: gate?.id ?? null,
          reason: evaluation.reason,
        };
      });
    },
  };
}
