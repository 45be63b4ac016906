import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  advanceRecovery,
  isFlakyTest,
  type RecoveredFinding,
  recordTestOutcomes,
  resetRecoveryAttempts,
  resolveRecovery,
} from './finding-recovery.js';

/** A finding as the analysis reports it: a recovery reads its key, place and message. */
type KeyedFinding = RecoveredFinding & Record<string, unknown>;

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
    const resolved = resolveRecovery(escalated, { fingerprint: 'f9', now: 2_000 });
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

describe('flaky failures', () => {
  const gone = (fingerprint: string, now: number) => ({ fingerprint, now });

  it('escalates a finding back with the file exactly as it was when last found', () => {
    const first = advanceRecovery(null, finding(), facts('f1', 1_000)).next;
    const resolved = resolveRecovery(first, gone('f2', 2_000));
    const back = advanceRecovery(resolved, finding(), facts('f1', 3_000));
    expect(back.escalation?.rules).toEqual(['non_deterministic_failure']);
    expect(back.next).toMatchObject({
      status: 'escalated',
      attempts: 1,
      escalatedBy: ['non_deterministic_failure'],
    });
  });

  it.each([
    ['the agent wrote the finding anew in other code', ['f1', 'f2', 'f3']],
    ['the finding never went away in between', null],
  ])('does not call it flaky when %s', (_name, prints) => {
    let current = advanceRecovery(null, finding(), facts('f1', 1_000)).next;
    if (prints === null) {
      current = advanceRecovery(current, finding(), facts('f2', 2_000)).next;
      const third = advanceRecovery(current, finding(), facts('f1', 3_000));
      expect(third.escalation?.rules).toEqual(['max_recovery_attempts']);
      return;
    }
    current = resolveRecovery(current, gone(prints[1] as string, 2_000));
    expect(advanceRecovery(current, finding(), facts(prints[2] as string, 3_000)).escalation).toBeNull();
  });

  it('sees alternating results of one test, and only those', () => {
    expect(isFlakyTest(['pass', 'fail', 'pass'])).toBe(true);
    expect(isFlakyTest(['fail', 'pass', 'fail'])).toBe(true);
    expect(isFlakyTest(['fail', 'fail', 'pass'])).toBe(false);
    expect(isFlakyTest(['pass', 'fail'])).toBe(false);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('pass' as const, 'fail' as const), { maxLength: 8 }),
        (outcomes) => {
          const last = outcomes.slice(-3);
          const alternating = last.length === 3 && last[0] === last[2] && last[0] !== last[1];
          expect(isFlakyTest(outcomes)).toBe(alternating);
        },
      ),
    );
  });

  it('starts a test’s results afresh when its file changed, and keeps each test apart', () => {
    const current = advanceRecovery(null, finding(), facts('f1')).next;
    const report = (name: string, outcome: 'pass' | 'fail', fileChanged = false) => ({
      name,
      outcome,
      fileChanged,
    });
    const two = recordTestOutcomes(
      current,
      [report('a', 'pass'), report('a', 'fail'), report('b', 'pass')],
      2,
    );
    expect(two.flaky).toEqual([]);
    const changed = recordTestOutcomes(two.next, [report('a', 'pass', true)], 3);
    expect(changed).toMatchObject({ flaky: [], next: { testOutcomes: { a: ['pass'], b: ['pass'] } } });
    const other = recordTestOutcomes(two.next, [report('b', 'fail'), report('b', 'fail')], 3);
    expect(other.flaky).toEqual([]);
    const same = recordTestOutcomes(two.next, [report('a', 'pass')], 3);
    expect(same).toMatchObject({ flaky: ['a'], next: { testOutcomes: { a: ['pass', 'fail', 'pass'] } } });
  });

  it('forgets results and observations on a retry decision', () => {
    const current = advanceRecovery(null, finding(), facts('f1')).next;
    const reported = recordTestOutcomes(current, [{ name: 'a', outcome: 'fail', fileChanged: false }], 2);
    const retried = resetRecoveryAttempts(reported.next, 3);
    expect(retried).toMatchObject({ testOutcomes: {}, observations: [] });
  });
});
