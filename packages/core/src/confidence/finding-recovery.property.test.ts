import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TRIGGER_LIMITS } from '../gates/escalation.js';
import {
  advanceRecovery,
  type FindingRecovery,
  type RecoveredFinding,
  resetRecoveryAttempts,
  resolveRecovery,
} from './finding-recovery.js';

const finding: RecoveredFinding = {
  key: 'lazy.placeholder_body|src/a.ts|total',
  pattern: 'lazy.placeholder_body',
  file: 'src/a.ts',
  name: 'total',
  line: 2,
  severity: 'high',
  message: 'replaces the body of total with a placeholder',
};

type Step = { kind: 'found' | 'gone' | 'retry'; fingerprint: string };
const step: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom('found' as const, 'found' as const, 'gone' as const, 'retry' as const),
  fingerprint: fc.constantFrom('f1', 'f2', 'f3', 'f4'),
});

describe('a finding’s recovery, over any run of analyses', () => {
  it('escalates once, stays escalated until a retry, and never lets a recovering count reach the limit', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps) => {
        let current: FindingRecovery | null = null;
        steps.forEach(({ kind, fingerprint }, i) => {
          const now = 1_000 + i;
          if (kind === 'gone' || kind === 'retry') {
            if (current === null) return;
            current =
              kind === 'gone'
                ? resolveRecovery(current, { fingerprint, now })
                : resetRecoveryAttempts(current, now);
            expect(current.updatedAt).toBe(now);
            return;
          }
          const before: FindingRecovery | null = current;
          const { next, escalation } = advanceRecovery(before, finding, { runId: 'run_1', fingerprint, now });
          if (escalation !== null) {
            expect(next.status).toBe('escalated');
            expect(before?.status).not.toBe('escalated');
            expect(next.escalatedBy).toEqual([...escalation.rules]);
          }
          if (before?.status === 'escalated') {
            expect(escalation).toBeNull();
            expect(next.status).toBe('escalated');
            expect(next.attempts).toBe(before.attempts);
          }
          if (next.status === 'recovering')
            expect(next.attempts).toBeLessThan(TRIGGER_LIMITS.maxRecoveryAttempts);
          expect(next.history.at(-1)?.fingerprint).toBe(fingerprint);
          expect(next.history.length).toBeLessThanOrEqual(20);
          expect(next.observations?.length ?? 0).toBeLessThanOrEqual(6);
          expect(next.updatedAt).toBe(now);
          if (before !== null)
            expect(next.createdAt).toBe(before.status === 'resolved' ? now : before.createdAt);
          current = next;
        });
      }),
    );
  });
});
