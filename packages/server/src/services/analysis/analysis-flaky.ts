import { flakyEvaluation, type Gate, recordTestOutcomes, type TestReport } from 'gatehouse-hitl-core';
import type { RecoveryRecord } from 'gatehouse-hitl-store';
import type { CommitTools } from '../commit.js';
import { assertWritten } from '../lost-update.js';
import type { GateService } from '../types.js';
import { type GateOrigin, openRecoveryGate } from './analysis-gates.js';
import type { KeyedFinding } from './findings.js';

/** A test result the agent saw after the change it sends for analysis. */
export interface ReportedTest {
  name: string;
  file?: string | undefined;
  outcome: 'pass' | 'fail';
}

/** The reports about the recovery's tests: those in its file, or the test or unit it names. */
function reportsFor(
  recovery: RecoveryRecord,
  tests: readonly ReportedTest[],
  changed: ReadonlySet<string>,
): TestReport[] {
  const about = tests.filter((test) =>
    test.file === undefined ? test.name === recovery.name : test.file === recovery.file,
  );
  return about.map((test) => ({
    name: test.name,
    outcome: test.outcome,
    fileChanged: changed.has(recovery.file) || (test.file !== undefined && changed.has(test.file)),
  }));
}

/** The recovery's finding as its escalation gate shows it, saying which tests were flaky. */
function findingOf(recovery: RecoveryRecord, flaky: readonly string[]): KeyedFinding {
  const tests = flaky.map((name) => JSON.stringify(name)).join(', ');
  return {
    key: recovery.key,
    kind: 'laziness',
    pattern: recovery.pattern,
    severity: recovery.severity as KeyedFinding['severity'],
    confidence: 1,
    file: recovery.file,
    line: recovery.line,
    name: recovery.name,
    message: `flaky: ${tests} passed and failed in turn while unchanged (${recovery.pattern} in ${recovery.file})`,
  };
}

/**
 * Adds the agent's test results to the open recoveries they are about (a test in the finding's file,
 * or, without a file, the test or unit the finding names). A test whose results alternate (pass,
 * fail, pass or the reverse) while its file stayed the same is a flaky failure: seed 001 escalates it
 * to a person at once. Reports can only escalate, never resolve or reset a recovery.
 */
export async function recordReportedTests(
  gates: GateService,
  tools: CommitTools,
  origin: GateOrigin & { runId: string },
  change: { files: readonly { path: string }[]; tests: readonly ReportedTest[] },
): Promise<Gate[]> {
  if (change.tests.length === 0) return [];
  const { tx } = tools;
  const changed = new Set(change.files.map((file) => file.path));
  const opened: Gate[] = [];
  for (const listed of await tx.listRecoveries(origin.runId)) {
    const reports = reportsFor(listed, change.tests, changed);
    if (listed.status === 'resolved' || reports.length === 0) continue;
    const stored = await tx.getRecovery(origin.runId, listed.key);
    if (stored === null) continue;
    const { version, ...current } = stored;
    const recorded = recordTestOutcomes(current, reports, tx.now);
    let next = recorded.next;
    if (recorded.flaky.length > 0 && current.status === 'recovering') {
      const evaluation = flakyEvaluation({
        attempts: current.attempts,
        severity: current.severity,
        loop: false,
      });
      next = { ...next, status: 'escalated', escalatedBy: evaluation.rules };
      const gate = await openRecoveryGate(gates, tools, origin, {
        recovery: next,
        evaluation,
        finding: findingOf(current, recorded.flaky),
      });
      next = { ...next, gateId: gate.id };
      opened.push(gate);
    }
    assertWritten(await tx.updateRecovery(next, version), { kind: 'run', id: origin.runId });
  }
  return opened;
}
