import type { AnalysisResult, ChangeInput, CoverageSummary, FileChange } from 'gatehouse-hitl-analysis';
import {
  evaluateTrigger,
  factsWithout,
  type Gate,
  GatehouseError,
  recoveryDocument,
} from 'gatehouse-hitl-core';
import { ANALYZE_LINES_MAX } from 'gatehouse-hitl-protocol';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { commit } from '../commit.js';
import { invalidInput } from '../gates/gate-input.js';
import { retryLostUpdates } from '../lost-update.js';
import { assertCanReadRun, loadRun } from '../runs/run-records.js';
import type { GateService } from '../types.js';
import { checkPatternId } from '../whitelists/whitelist-decisions.js';
import type { WhitelistService } from '../whitelists/whitelist-service.js';
import type { ReportedTest } from './analysis-flaky.js';
import { openFalsePositiveGate } from './analysis-gates.js';
import { recordRunChange } from './analysis-run.js';
import { type AnalysisEngine, workerEngine } from './engine.js';
import { destructiveEvaluation, findingKey, type KeyedFinding, keyed, verdictOf } from './findings.js';

type Coverage =
  | { before: string; after: string }
  | { before: { linePercent: number }; after: { linePercent: number } };

/** A change to analyse: a unified diff or files before and after, with coverage if there is any. */
export interface AnalyzeInput {
  runId?: string | undefined;
  diff?: string | undefined;
  files?:
    | { path: string; oldPath?: string | undefined; before: string | null; after: string | null }[]
    | undefined;
  coverage?: Coverage | undefined;
  action?: { tool: string; args: Record<string, unknown> } | undefined;
  /** Test results the agent saw after the change; alternating results of an unchanged test are a flaky failure. */
  tests?: ReportedTest[] | undefined;
}

/** A person's word that a finding is wrong. */
export interface FindingReportInput {
  runId?: string | undefined;
  finding: {
    pattern: string;
    file: string;
    line?: number | null | undefined;
    name?: string | null | undefined;
    confidence?: number | undefined;
  };
  reason: string;
}

export interface AnalyzeResult {
  findings: KeyedFinding[];
  facts: AnalysisResult['facts'];
  verdict: ReturnType<typeof verdictOf>;
  gates: Gate[];
  durationMs: number;
}

/** Change analysis wired into the gates, and the recovery state it keeps per run and finding. */
export interface AnalysisService {
  /** `pushed`: the server's own analysis of a pushed phase branch (see RunChange.pushed). */
  analyze(principal: Principal, input: AnalyzeInput, options?: { pushed?: boolean }): Promise<AnalyzeResult>;
  reportFinding(principal: Extract<Principal, { kind: 'user' }>, input: FindingReportInput): Promise<Gate>;
  recoveries(principal: Principal, runId: string): Promise<ReturnType<typeof recoveryDocument>[]>;
  /** Stops the analysis workers; analyses still running fail with SERVICE_UNAVAILABLE. */
  close(): Promise<void>;
}

function summaryOf(
  engine: AnalysisEngine,
  report: string | { linePercent: number },
  field: string,
): CoverageSummary {
  if (typeof report !== 'string') return { linePercent: report.linePercent, linesFound: 0, linesHit: 0 };
  try {
    return engine.parseCoverage(report);
  } catch (error) {
    throw invalidInput(
      field,
      `is not an lcov, Istanbul JSON summary or Cobertura XML report (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

function linesOf(text: string | null): number {
  if (text === null || text === '') return 0;
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines += 1;
  return lines;
}

/**
 * A change past ANALYZE_LINES_MAX is refused rather than holding the server for seconds. A diff counts
 * its own lines: the files rebuilt from its hunks hold blank stand-ins for the lines it does not show.
 */
function assertWithinLineBudget(lines: number, field: 'files' | 'diff'): void {
  if (lines <= ANALYZE_LINES_MAX) return;
  const counted = field === 'diff' ? 'lines' : 'lines before and after together';
  throw new GatehouseError(
    'PAYLOAD_TOO_LARGE',
    `${field}: the change has ${lines} ${counted}, more than the ${ANALYZE_LINES_MAX} one analysis takes; analyse it in parts`,
    { field, lines, limit: ANALYZE_LINES_MAX },
  );
}

function linesOfFiles(files: readonly FileChange[]): number {
  return files.reduce((sum, file) => sum + linesOf(file.before) + linesOf(file.after), 0);
}

function changeOf(engine: AnalysisEngine, input: AnalyzeInput): ChangeInput {
  let files: FileChange[];
  if (input.diff !== undefined) {
    assertWithinLineBudget(linesOf(input.diff), 'diff');
    files = engine.diffToChanges(input.diff);
    if (files.length === 0)
      throw invalidInput('diff', 'holds no file changes; send a unified diff (git diff)');
  } else {
    files = (input.files ?? []).map((file) => ({ ...file, oldPath: file.oldPath ?? null }));
    assertWithinLineBudget(linesOfFiles(files), 'files');
  }
  const coverage =
    input.coverage === undefined
      ? undefined
      : {
          before: summaryOf(engine, input.coverage.before, 'coverage.before'),
          after: summaryOf(engine, input.coverage.after, 'coverage.after'),
        };
  return { files, coverage };
}

/** Creates the analysis service; `engine` defaults to the installed analysis package in worker threads. */
export function createAnalysisService(
  ctx: AppContext,
  deps: {
    gates: GateService;
    whitelists: Pick<WhitelistService, 'screen' | 'recordInCommit'>;
    engine?: AnalysisEngine;
  },
): AnalysisService {
  const engine = deps.engine ?? workerEngine(ctx);
  return {
    async analyze(principal, input, options = {}) {
      if (principal.kind === 'anonymous')
        throw new GatehouseError('UNAUTHENTICATED', 'log in or send a bearer token');
      const change = changeOf(engine, input);
      const result = await engine.analyzeChange(change);
      const agentId = principal.kind === 'agent' ? principal.id : null;
      const screenInput = { findings: keyed(result.findings), files: change.files, agentId };
      const screened = await deps.whitelists.screen(screenInput);
      const findings = screened.kept;
      const facts = factsWithout(
        result.facts,
        screened.suppressed.map(({ finding }) => finding),
      );
      const destructive = destructiveEvaluation(facts);
      const answer = {
        findings,
        facts,
        verdict: verdictOf(findings, destructive),
        durationMs: result.durationMs,
      };
      const { runId } = input;
      if (runId === undefined) return { ...answer, gates: [] };
      const gates = await retryLostUpdates(() =>
        commit(ctx, async (tools) => {
          await deps.whitelists.recordInCommit(tools, { ...screenInput, runId }, screened);
          return recordRunChange(deps.gates, tools, principal, {
            runId,
            files: change.files,
            findings,
            facts,
            destructive,
            action: input.action,
            tests: input.tests,
            pushed: options.pushed,
          });
        }),
      );
      return { ...answer, gates };
    },
    reportFinding(principal, input) {
      checkPatternId(input.finding.pattern, 'finding.pattern');
      return commit(ctx, async (tools) => {
        const run = input.runId === undefined ? null : await loadRun(tools.tx, input.runId);
        const finding = {
          pattern: input.finding.pattern,
          file: input.finding.file,
          line: input.finding.line ?? null,
          name: input.finding.name ?? null,
          confidence: input.finding.confidence,
        };
        const evaluation = evaluateTrigger('false_positive_override', {
          falsePositiveReported: true,
          detectionConfidence: finding.confidence,
        });
        const origin = {
          runId: run?.id ?? null,
          agentId: run?.agentId ?? null,
          requestedBy: `user:${principal.id}`,
        };
        return openFalsePositiveGate(deps.gates, tools, origin, {
          finding: { ...finding, key: findingKey(finding) },
          evaluation,
          reportedBy: principal.name,
          reason: input.reason,
        });
      });
    },
    async recoveries(principal, runId) {
      return ctx.store.read(async (tx) => {
        assertCanReadRun(principal, await loadRun(tx, runId));
        return (await tx.listRecoveries(runId)).map(recoveryDocument);
      });
    },
    close: () => engine.close(),
  };
}
