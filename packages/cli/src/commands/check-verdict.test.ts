import type { AnalysisResult, ChangeFacts, Finding } from 'gatehouse-hitl-analysis';
import { describe, expect, it } from 'vitest';
import { blockingFindings, decideCheck } from './check-verdict.js';

const NO_FACTS: ChangeFacts = {
  testsRemoved: 0,
  testsAdded: 0,
  replacementTests: 0,
  assertionsRemoved: 0,
  assertionsWeakened: 0,
  skipPatternsAdded: 0,
  featuresRemoved: 0,
  coverageDelta: null,
  lazinessFindings: 0,
};

function finding(severity: Finding['severity'], kind: Finding['kind'] = 'laziness'): Finding {
  return {
    kind,
    pattern: 'lazy.example',
    severity,
    confidence: 0.9,
    file: 'a.ts',
    line: 1,
    name: null,
    message: 'x',
  };
}

function result(facts: Partial<ChangeFacts>, findings: Finding[] = []): AnalysisResult {
  return { findings, facts: { ...NO_FACTS, ...facts }, languages: {}, durationMs: 1 };
}

describe('decideCheck', () => {
  it('passes a change with no facts and no findings', () => {
    expect(decideCheck(result({}), 'high')).toMatchObject({
      verdict: 'pass',
      destructive: { triggered: false, reasons: [], autoApproved: null },
    });
  });

  it.each([
    [{ testsRemoved: 1 }, 'tests_removed 1'],
    [{ skipPatternsAdded: 2 }, 'skip_patterns_added 2'],
    [{ featuresRemoved: 1 }, 'features_removed 1'],
    [{ assertionsWeakened: 3 }, 'assertions_weakened 3 is more than 2'],
    [{ coverageDelta: -2.5 }, 'coverage_delta -2.5'],
  ])('gates on seed 001 thresholds: %j', (facts, reason) => {
    const report = decideCheck(result(facts), 'critical');
    expect(report.verdict).toBe('gate');
    expect(report.destructive.reasons.join(' ')).toContain(reason);
  });

  it.each([[{ assertionsWeakened: 2 }], [{ coverageDelta: -2 }]])(
    'stays under the thresholds: %j',
    (facts) => {
      expect(decideCheck(result(facts), 'critical').verdict).toBe('pass');
    },
  );

  it('auto-approves removed tests that were all replaced while coverage held or was not measured', () => {
    for (const coverageDelta of [null, 0, 1.5]) {
      const report = decideCheck(result({ testsRemoved: 2, replacementTests: 2, coverageDelta }), 'high');
      expect(report.verdict).toBe('pass');
      expect(report.destructive).toMatchObject({
        triggered: false,
        autoApproved: 'legitimate_test_refactoring',
      });
    }
  });

  it('gates replaced tests when coverage dropped, and tests only partly replaced', () => {
    expect(
      decideCheck(result({ testsRemoved: 2, replacementTests: 2, coverageDelta: -0.5 }), 'high').verdict,
    ).toBe('gate');
    expect(decideCheck(result({ testsRemoved: 2, replacementTests: 1 }), 'high').verdict).toBe('gate');
  });

  it('fails on findings at or above --fail-on when no gate opens', () => {
    const findings = [finding('low'), finding('medium')];
    expect(decideCheck(result({}, findings), 'high').verdict).toBe('pass');
    expect(decideCheck(result({}, findings), 'medium').verdict).toBe('fail');
    expect(decideCheck(result({}, findings), 'low').verdict).toBe('fail');
  });
});

describe('blockingFindings', () => {
  it('keeps the findings of the threshold severity and above', () => {
    const all = [finding('low'), finding('medium'), finding('high'), finding('critical')];
    expect(blockingFindings(all, 'high').map((f) => f.severity)).toEqual(['high', 'critical']);
  });
});
