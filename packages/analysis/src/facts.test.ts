import { describe, expect, it } from 'vitest';
import { analyzeChange } from './analyze.js';
import { factsOf } from './facts.js';
import type { Finding, FindingKind } from './types.js';

const of = (kind: FindingKind): Finding => ({
  kind,
  pattern: kind,
  severity: 'low',
  confidence: 1,
  file: 'a',
  line: 1,
  name: null,
  message: '',
});

describe('factsOf', () => {
  it('counts replaced tests both as removed and as replacements, so test refactoring can be approved', () => {
    const facts = factsOf([
      of('test_removed'),
      of('test_replaced'),
      of('test_replaced'),
      of('test_added'),
      of('skip_added'),
      of('laziness'),
    ]);
    expect(facts).toEqual({
      testsRemoved: 3,
      testsAdded: 1,
      replacementTests: 2,
      assertionsRemoved: 0,
      assertionsWeakened: 0,
      skipPatternsAdded: 1,
      featuresRemoved: 0,
      coverageDelta: null,
      lazinessFindings: 1,
    });
  });

  it('gives the coverage delta in points, and a finding when coverage drops', async () => {
    const coverage = {
      before: { linePercent: 81.5, linesFound: 200, linesHit: 163 },
      after: { linePercent: 78.25, linesFound: 200, linesHit: 156 },
    };
    const { facts, findings } = await analyzeChange({ files: [], coverage });
    expect(facts.coverageDelta).toBe(-3.25);
    expect(findings.map((item) => `${item.kind} ${item.severity}`)).toEqual(['coverage_dropped high']);
    const kept = await analyzeChange({
      files: [],
      coverage: { before: coverage.before, after: coverage.before },
    });
    expect([kept.facts.coverageDelta, kept.findings.length]).toEqual([0, 0]);
  });
});

describe('confidence', () => {
  const before = "it('a', () => {\n  expect(a()).toBe(1);\n});\nit('b', () => {});\n";
  const after = "it('b', () => {});\n";

  it('is highest for whole files, lower for a diff, and at most 0.6 for line rules', async () => {
    const confidence = async (path: string, partial: boolean) => {
      const { findings } = await analyzeChange({ files: [{ path, before, after, partial }] });
      return findings.find((item) => item.kind === 'test_removed')?.confidence;
    };
    expect(await confidence('a.test.ts', false)).toBe(0.95);
    expect(await confidence('a.test.ts', true)).toBe(0.8);
    expect(await confidence('a.test.rb', false)).toBeLessThanOrEqual(0.6);
  });
});
