import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONFIDENCE_BANDS,
  checkApproval,
  confidenceBand,
  evaluateConfidenceReport,
  loadConfidenceConfig,
  normalizeConfidence,
  scoreConfidence,
} from './confidence.js';

const unit = fc.double({ min: 0, max: 1, noNaN: true });
const mode = fc.constantFrom('auto', 'manual', 'confidence_threshold') as fc.Arbitrary<
  'auto' | 'manual' | 'confidence_threshold'
>;
const rank = (confidence: number) =>
  CONFIDENCE_BANDS.length - CONFIDENCE_BANDS.indexOf(confidenceBand(confidence));

describe('confidence properties', () => {
  it('never proceeds with an always-gated step, in any mode', () => {
    fc.assert(
      fc.property(mode, unit, fc.option(unit, { nil: undefined }), (m, confidence, threshold) => {
        expect(checkApproval({ mode: m, confidence, alwaysGated: true, threshold })).toBe('wait');
      }),
    );
  });

  it('never proceeds in manual mode', () => {
    fc.assert(
      fc.property(unit, fc.boolean(), (confidence, alwaysGated) => {
        expect(checkApproval({ mode: 'manual', confidence, alwaysGated })).toBe('wait');
      }),
    );
  });

  it('proceeds in auto mode exactly in the high band', () => {
    fc.assert(
      fc.property(unit, (confidence) => {
        const proceeds = checkApproval({ mode: 'auto', confidence, alwaysGated: false }) === 'proceed';
        expect(proceeds).toBe(confidenceBand(confidence) === 'high');
      }),
    );
  });

  it('never ranks a higher confidence in a lower band', () => {
    fc.assert(
      fc.property(unit, unit, (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(rank(low)).toBeLessThanOrEqual(rank(high));
      }),
    );
  });

  it('gives a score and the matching confidence the same band', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), (score) => {
        expect(confidenceBand(normalizeConfidence({ score }))).toBe(
          confidenceBand(normalizeConfidence({ confidence: score / 100 })),
        );
      }),
    );
  });

  it('escalates a report exactly when its score is below the threshold or in the zero band', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), (score, threshold) => {
        const config = loadConfidenceConfig({ CONFIDENCE_THRESHOLD: String(threshold) });
        const evaluation = evaluateConfidenceReport({ score }, config);
        expect(evaluation.escalate).toBe(score < threshold || score < 20);
        expect(evaluation.abortSubtask).toBe(score < 20);
      }),
    );
  });

  it('always scores between 0 and 1', () => {
    const toolCall = fc.record({
      tool: fc.constantFrom('shell_execute', 'bash', 'read_file', 'write_file'),
      args: fc.record({ command: fc.constantFrom('rm -rf x', 'ls', 'DROP TABLE t', 'echo delete me') }),
      success: fc.boolean(),
    });
    const input = fc.record({
      verification: fc.record({
        tier: fc.integer({ min: 0, max: 3 }),
        checks: fc.array(fc.record({ passed: fc.boolean() }), { maxLength: 5 }),
        confidence: unit,
      }),
      retryCount: fc.integer({ min: 0, max: 10 }),
      maxRetries: fc.integer({ min: 0, max: 5 }),
      toolCalls: fc.array(toolCall, { maxLength: 5 }),
    });
    fc.assert(
      fc.property(input, (value) => {
        const score = scoreConfidence(value);
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1 + 1e-12);
      }),
    );
  });
});
