import { describe, expect, it } from 'vitest';
import type { KeyedFinding } from './findings.js';
import { advanceRecovery, resetRecoveryAttempts, resolveRecovery } from './recoveries.js';

function finding(overrides: Partial<KeyedFinding> = {}): KeyedFinding {
  return {
    key: 'lazy.placeholder_body|src/a.ts|total',
    kind: 'laziness',
    pattern: 'lazy.placeholder_body',
    severity: 'high',
    confidence: 0.9,
    file: 'src/a.ts',
    line: 2,
    name: 'total',
    message: 'replaces the body of total with a placeholder',
    ...overrides,
  };
}

const facts = (fingerprint: string, now = 1_000) => ({ runId: 'run_1', fingerprint, now });

describe('advanceRecovery', () => {
  it('counts attempts with different fixes and escalates at the third', () => {
    const first = advanceRecovery(null, finding(), facts('f1'));
    const second = advanceRecovery(first.next, finding(), facts('f2'));
    const third = advanceRecovery(second.next, finding(), facts('f3'));
    expect([first.escalation, second.escalation]).toEqual([null, null]);
    expect(third.next).toMatchObject({
      status: 'escalated',
      attempts: 3,
      escalatedBy: ['max_recovery_attempts'],
    });
    expect(third.next.history.map((attempt) => attempt.fingerprint)).toEqual(['f1', 'f2', 'f3']);
  });

  it.each([
    ['a CRITICAL finding at once', [finding({ severity: 'critical' })], ['f1'], ['critical_severity']],
    ['the same fix twice as a loop', [finding(), finding()], ['f1', 'f1'], ['infinite_loop']],
  ])('escalates %s', (_name, findings, prints, rules) => {
    let step = advanceRecovery(null, findings[0] as KeyedFinding, facts(prints[0] as string));
    for (let index = 1; index < findings.length; index++) {
      step = advanceRecovery(step.next, findings[index] as KeyedFinding, facts(prints[index] as string));
    }
    expect(step.escalation?.rules).toEqual(rules);
    expect(step.next.status).toBe('escalated');
  });

  it('records attempts on an escalated recovery without escalating again', () => {
    let current = advanceRecovery(null, finding({ severity: 'critical' }), facts('f1')).next;
    const again = advanceRecovery(current, finding({ severity: 'critical' }), facts('f2'));
    current = again.next;
    expect(again.escalation).toBeNull();
    expect(current).toMatchObject({ status: 'escalated', attempts: 1 });
    expect(current.history).toHaveLength(2);
  });

  it('starts a new count after a resolved recovery and after a retry, keeping the history', () => {
    const escalated = advanceRecovery(null, finding({ severity: 'critical' }), facts('f1')).next;
    const resolved = resolveRecovery(escalated, 2_000);
    expect(resolved.status).toBe('resolved');
    const back = advanceRecovery(resolved, finding(), facts('f2', 3_000)).next;
    expect(back).toMatchObject({ status: 'recovering', attempts: 1 });
    expect(back.history).toHaveLength(2);
    const retried = resetRecoveryAttempts({ ...back, status: 'escalated', gateId: 'gate_1' }, 4_000);
    expect(retried).toMatchObject({ status: 'recovering', attempts: 0, gateId: null, signatures: [] });
    // The fix that looped before the retry counts as a new attempt, not a loop.
    expect(advanceRecovery(retried, finding(), facts('f2')).loop).toBe(false);
  });
});
