import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../clock.js';
import type { Gate } from '../schemas.js';
import { createGateCatalog } from './catalog.js';
import { type OpenGateInput, openGate } from './gate-open.js';
import {
  applyGateEvent,
  authorizeDecision,
  DEFAULT_ESCALATION_STEP_MS,
  type DecisionPrincipal,
  type GateEvent,
  gateOutcomeFor,
  isTerminal,
  isWorkspacePath,
} from './gate-state.js';

const catalog = createGateCatalog();
const START = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

function open(input: Partial<OpenGateInput> = {}): Gate {
  return openGate(
    { type: 'tool_call', timeoutMs: 10 * MINUTE, ...input },
    { now: START, id: 'gate_1', catalog },
  );
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function apply(gate: Gate, event: GateEvent, now = START + MINUTE) {
  return applyGateEvent(deepFreeze(gate), event, now);
}

function errorOf(run: () => unknown): { code: string; message: string; details: Record<string, unknown> } {
  try {
    run();
  } catch (error) {
    return error as { code: string; message: string; details: Record<string, unknown> };
  }
  throw new Error('expected an error');
}

const decide = (option: string, by = 'ana', extra: Partial<GateEvent> = {}): GateEvent =>
  ({ type: 'decide', option, by, ...extra }) as GateEvent;

describe('deciding a gate', () => {
  it.each([
    ['approve', 'approved', 'approved'],
    ['approve_always', 'approved', 'approved'],
    ['reject', 'rejected', 'denied'],
  ])('records %s as %s (agent sees %s)', (option, status, outcome) => {
    const { gate, changed, ended } = apply(open(), decide(option, 'ana', { reason: 'looks fine' }));
    expect({ changed, ended, status: gate.status }).toEqual({ changed: true, ended: true, status });
    expect(gate.decision).toMatchObject({ option, outcome: status, decidedBy: 'ana', reason: 'looks fine' });
    expect(gateOutcomeFor(gate)).toBe(outcome);
  });

  it('refuses a second decision with GATE_ALREADY_DECIDED naming the winner', () => {
    const first = apply(open(), decide('approve', 'ana')).gate;
    const error = errorOf(() => apply(first, decide('reject', 'bo')));
    expect(error.code).toBe('GATE_ALREADY_DECIDED');
    expect(error.details.winner).toEqual(first.decision);
  });

  it('refuses a decision at the deadline and accepts one just before it', () => {
    const gate = open();
    const deadline = START + 10 * MINUTE;
    expect(errorOf(() => apply(gate, decide('approve'), deadline)).code).toBe('GATE_EXPIRED');
    expect(apply(gate, decide('approve'), deadline - 1).gate.status).toBe('approved');
  });

  it('refuses an unknown option with INVALID_OPTION listing the valid ones', () => {
    const error = errorOf(() => apply(open(), decide('retry')));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toContain('approve, approve_always, reject, steer');
    expect(error.details.options).toEqual(['approve', 'approve_always', 'reject', 'steer']);
  });

  it.each([
    ['view', 'recovery_escalation'],
    ['diff', 'destructive_action'],
    ['history', 'false_positive_override'],
  ])('leaves the gate unchanged for the show-more option %s', (option, type) => {
    const gate = open({ type });
    expect(apply(gate, decide(option))).toEqual({ gate, changed: false, ended: false });
  });

  it('refuses a blank decider', () => {
    expect(errorOf(() => apply(open(), decide('approve', ' '))).details.field).toBe('by');
  });

  it('refuses a payload hash other than the one the gate was opened for', () => {
    const gate = open({ payloadHash: 'h1' });
    expect(errorOf(() => apply(gate, decide('approve', 'ana', { payloadHash: 'h2' }))).code).toBe(
      'PAYLOAD_MISMATCH',
    );
    const { gate: approved } = apply(gate, decide('approve', 'ana', { payloadHash: 'h1', signature: 'sig' }));
    expect(approved.decision).toMatchObject({ payloadHash: 'h1', signature: 'sig' });
  });

  it('resolves a gate-specific option and hands its id to the agent', () => {
    const { gate } = apply(open({ type: 'recovery_escalation' }), decide('retry'));
    expect(gate.status).toBe('resolved');
    expect(gateOutcomeFor(gate)).toBe('retry');
  });

  it.each([
    ['request_changes', 'phase_review', 'feedback'],
    ['whitelist', 'false_positive_override', 'reason'],
    ['suggest', 'destructive_action', 'instructions'],
  ])('requires %s of %s to carry %s', (option, type, field) => {
    const gate = open({ type });
    expect(errorOf(() => apply(gate, decide(option))).details.field).toBe(field);
    expect(apply(gate, decide(option, 'ana', { [field]: 'because' })).ended).toBe(true);
  });
});

describe('steering', () => {
  it('records a steer with its instructions and affected artifacts', () => {
    const event = decide('steer', 'ana', {
      instructions: 'Use Postgres',
      affectedArtifacts: ['docs/design.md'],
    });
    const { gate } = apply(open({ type: 'intent_approval' }), event);
    expect(gate.status).toBe('steered');
    expect(gate.decision).toMatchObject({
      instructions: 'Use Postgres',
      affectedArtifacts: ['docs/design.md'],
    });
    expect(gateOutcomeFor(gate)).toBe('steered');
  });

  it.each([undefined, '', '   \n'])(
    'refuses a steer with instructions %j naming instructions',
    (instructions) => {
      const error = errorOf(() => apply(open(), decide('steer', 'ana', { instructions })));
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'instructions' } });
    },
  );

  it.each([
    '/etc/passwd',
    '../secrets',
    'docs/../../x',
    '..\\secrets',
    'docs\\..\\..\\x',
    'docs/..\\..\\x',
    '..',
    'a\0b',
    'C:\\x',
    '\\\\host\\share',
    '~/x',
    '',
  ])('refuses the affected artifact %j', (path) => {
    const event = decide('steer', 'ana', { instructions: 'x', affectedArtifacts: ['ok.md', path] });
    const error = errorOf(() => apply(open(), event));
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field: 'affectedArtifacts[1]' } });
    expect(error.message).toContain('affectedArtifacts');
  });

  it.each(['src/a.ts', 'docs/design.md', './notes.txt', 'a..b/c'])(
    'accepts the workspace path %s',
    (path) => {
      expect(isWorkspacePath(path)).toBe(true);
    },
  );

  it('records a confirmed steer on a non-steerable gate as approve with the instructions as feedback', () => {
    const event = decide('steer', 'ana', {
      instructions: 'Check the JWT algorithm first',
      feedback: 'Close.',
      confirmApproval: true,
    });
    const { gate } = apply(open({ type: 'recovery_escalation' }), event);
    expect(gate.status).toBe('approved');
    expect(gate.decision).toMatchObject({
      option: 'approve',
      feedback: 'Close.\n\nCheck the JWT algorithm first',
    });
    expect(gate.decision?.instructions).toBeUndefined();
  });

  it.each(['recovery_escalation', 'false_positive_override'])(
    'never turns a steer on a %s gate into an approval silently',
    (type) => {
      const error = errorOf(() => apply(open({ type }), decide('steer', 'ana', { instructions: 'redo it' })));
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.details.field).toBe('confirmApproval');
    },
  );

  it.each([
    ['destructive_action', 'suggest', 'steered'],
    ['phase_review', 'request_changes', 'resolved'],
    ['constraint_exception', 'reduce_scope', 'resolved'],
    ['intent_approval', 'steer', 'steered'],
    ['confidence_threshold', 'steer', 'steered'],
  ])('takes a plain steer on a %s gate as its %s option', (type, option, status) => {
    const { gate } = apply(open({ type }), decide('steer', 'lee', { instructions: 'redo the plan' }));
    expect(gate.status).toBe(status);
    expect(gate.decision?.option).toBe(option);
    const said = gate.decision?.instructions ?? gate.decision?.feedback;
    expect(said).toContain('redo the plan');
  });

  it('never approves a phase review when it is steered', () => {
    const { gate } = apply(
      open({ type: 'phase_review' }),
      decide('steer', 'lee', { instructions: 'redo the plan' }),
    );
    expect(gate.status).not.toBe('approved');
    expect(gate.decision).toMatchObject({ option: 'request_changes', feedback: 'redo the plan' });
  });
});

describe('plain reject on every gate (seed 000)', () => {
  it.each([
    ['intent_approval', 'reject_rollback', 'rejected'],
    ['confidence_threshold', 'reject_rollback', 'rejected'],
    ['constraint_exception', 'abort', 'resolved'],
    ['false_positive_override', 'violation', 'resolved'],
    ['phase_review', 'request_changes', 'resolved'],
    ['recovery_escalation', 'reject', 'rejected'],
    ['destructive_action', 'reject', 'rejected'],
    ['tool_call', 'reject', 'rejected'],
  ])('maps reject on a %s gate to %s', (type, option, status) => {
    const { gate } = apply(open({ type }), decide('reject', 'lee', { reason: 'not like this' }));
    expect(gate.status).toBe(status);
    expect(gate.decision?.option).toBe(option);
  });
});

describe('N-of-M approvals', () => {
  const twoOfThree = () => open({ requiredApprovals: 2, assignees: ['ana', 'bo', 'cy'] });

  it('approves only once N distinct people approved', () => {
    const first = apply(twoOfThree(), decide('approve', 'ana'));
    expect(first).toMatchObject({ changed: true, ended: false, gate: { status: 'pending' } });
    expect(first.gate.approvals).toEqual([{ by: 'ana', at: START + MINUTE }]);
    const second = apply(first.gate, decide('approve_always', 'bo'), START + 2 * MINUTE);
    expect(second).toMatchObject({
      ended: true,
      gate: { status: 'approved', decision: { decidedBy: 'bo' } },
    });
    expect(second.gate.approvals.map((v) => v.by)).toEqual(['ana', 'bo']);
  });

  it('refuses the same person approving twice', () => {
    const first = apply(twoOfThree(), decide('approve', 'ana')).gate;
    expect(errorOf(() => apply(first, decide('approve', 'ana'))).code).toBe('DUPLICATE_APPROVER');
  });

  it('ends the gate at once when anyone rejects', () => {
    const first = apply(twoOfThree(), decide('approve', 'ana', { reason: 'ok' })).gate;
    expect(first.approvals[0]?.reason).toBe('ok');
    expect(apply(first, decide('reject', 'bo')).gate.status).toBe('rejected');
  });
});

describe('timeouts', () => {
  const late = START + 10 * MINUTE;

  it('denies an expired gate with outcome expired', () => {
    const { gate, ended } = apply(open(), { type: 'expire' }, late);
    expect(ended).toBe(true);
    expect(gate).toMatchObject({
      status: 'expired',
      decision: { outcome: 'expired', decidedBy: 'system:timeout' },
    });
    expect(gateOutcomeFor(gate)).toBe('timed_out');
  });

  it('approves on timeout when the timeout action is proceed', () => {
    const { gate } = apply(open({ timeoutAction: 'proceed' }), { type: 'expire' }, late);
    expect(gate).toMatchObject({ status: 'approved', decision: { decidedBy: 'system:timeout' } });
  });

  it('ignores an expire before the deadline, without deadline or on an ended gate', () => {
    const gate = open();
    expect(apply(gate, { type: 'expire' }, late - 1).changed).toBe(false);
    expect(apply(open({ timeoutMs: null }), { type: 'expire' }, late * 2).changed).toBe(false);
    const ended = apply(gate, decide('approve')).gate;
    expect(apply(ended, { type: 'expire' }, late).gate).toBe(ended);
  });

  it('escalates up the chain, then expires when it is exhausted', () => {
    const clock = createFakeClock(late);
    let gate = open({ type: 'recovery_escalation', assignees: ['ana'] });
    const first = apply(gate, { type: 'expire', escalationStepMs: 5 * MINUTE }, clock.now());
    expect(first).toMatchObject({ changed: true, ended: false });
    expect(first.gate).toMatchObject({ status: 'pending', minRole: 'tech_lead', assignees: [] });
    expect(first.gate.timeoutAt).toBe(late + 5 * MINUTE);
    clock.advance(5 * MINUTE);
    gate = apply(first.gate, { type: 'expire' }, clock.now()).gate;
    expect(gate).toMatchObject({ minRole: 'admin', timeoutAt: clock.now() + DEFAULT_ESCALATION_STEP_MS });
    clock.advance(DEFAULT_ESCALATION_STEP_MS);
    expect(apply(gate, { type: 'expire' }, clock.now()).gate.status).toBe('expired');
  });

  it('refuses a bad escalation step', () => {
    const gate = open({ type: 'recovery_escalation' });
    const error = errorOf(() => apply(gate, { type: 'expire', escalationStepMs: 0 }, late));
    expect(error.details.field).toBe('escalationStepMs');
  });

  it('extends a pending gate to a later deadline', () => {
    const { gate } = apply(open(), { type: 'extend', until: late + MINUTE }, START + MINUTE);
    expect(gate.timeoutAt).toBe(late + MINUTE);
    expect(apply(gate, decide('approve'), late).gate.status).toBe('approved');
  });

  it.each([
    ['a time not after now', START + MINUTE, 'VALIDATION_FAILED'],
    ['a time more than 30 days ahead', START + 31 * 24 * 60 * MINUTE, 'VALIDATION_FAILED'],
  ])('refuses to extend to %s', (_case, until, code) => {
    expect(errorOf(() => apply(open(), { type: 'extend', until }, START + MINUTE)).code).toBe(code);
  });

  it('refuses to extend a gate whose deadline already passed', () => {
    expect(errorOf(() => apply(open(), { type: 'extend', until: late * 2 }, late)).code).toBe('GATE_EXPIRED');
  });
});

describe('cancel and assign', () => {
  it('cancels a pending gate', () => {
    const { gate } = apply(open(), { type: 'cancel', by: 'agent_1', reason: 'task dropped' });
    expect(gate).toMatchObject({
      status: 'cancelled',
      decision: { decidedBy: 'agent_1', reason: 'task dropped' },
    });
    expect(gateOutcomeFor(gate)).toBe('cancelled');
    expect(errorOf(() => apply(open(), { type: 'cancel', by: '', reason: '' })).details.field).toBe('by');
  });

  it('assigns a pending gate to named people', () => {
    expect(apply(open(), { type: 'assign', assignees: ['ana', 'ana'] }).gate.assignees).toEqual(['ana']);
  });

  it.each<GateEvent>([
    { type: 'cancel', by: 'ana', reason: 'x' },
    { type: 'extend', until: START + 5 * MINUTE },
    { type: 'assign', assignees: ['bo'] },
  ])('refuses $type on an ended gate with GATE_NOT_PENDING', (event) => {
    const ended = apply(open(), decide('reject')).gate;
    expect(errorOf(() => apply(ended, event)).code).toBe('GATE_NOT_PENDING');
  });
});

describe('authorizeDecision', () => {
  const gate = open({ type: 'destructive_action', requestedBy: 'lee', separationOfDuties: true });
  it.each<[string, DecisionPrincipal, string | null]>([
    ['an agent', { id: 'agent_1', role: 'admin', kind: 'agent' }, 'FORBIDDEN'],
    ['a developer on a tech-lead gate', { id: 'ana', role: 'developer', kind: 'user' }, 'ROLE_TOO_LOW'],
    ['the requester', { id: 'lee', role: 'tech_lead', kind: 'user' }, 'SELF_APPROVAL'],
    ['a tech lead', { id: 'max', role: 'tech_lead', kind: 'user' }, null],
    ['an admin', { id: 'root', role: 'admin', kind: 'user' }, null],
  ])('%s → %s', (_case, principal, code) => {
    if (code === null) expect(() => authorizeDecision(gate, principal)).not.toThrow();
    else expect(errorOf(() => authorizeDecision(gate, principal)).code).toBe(code);
  });

  it('refuses people who are not assignees of an assigned gate', () => {
    const assigned = open({ assignees: ['ana'] });
    expect(errorOf(() => authorizeDecision(assigned, { id: 'bo', role: 'admin', kind: 'user' })).code).toBe(
      'NOT_ASSIGNEE',
    );
    expect(() => authorizeDecision(assigned, { id: 'ana', role: 'developer', kind: 'user' })).not.toThrow();
  });

  it('refuses the requester whether the gate names them bare or as user:<id>, as the server records people', () => {
    const asUser = open({ type: 'destructive_action', requestedBy: 'user:lee', separationOfDuties: true });
    expect(
      errorOf(() => authorizeDecision(asUser, { id: 'lee', role: 'tech_lead', kind: 'user' })).code,
    ).toBe('SELF_APPROVAL');
    expect(() => authorizeDecision(asUser, { id: 'max', role: 'tech_lead', kind: 'user' })).not.toThrow();
  });

  it('lets the requester decide when separation of duties is off', () => {
    const own = open({ requestedBy: 'ana' });
    expect(() => authorizeDecision(own, { id: 'ana', role: 'developer', kind: 'user' })).not.toThrow();
  });
});

describe('statuses', () => {
  it.each([
    ['pending', false],
    ['approved', true],
    ['rejected', true],
    ['steered', true],
    ['expired', true],
    ['cancelled', true],
    ['resolved', true],
  ] as const)('%s is terminal: %s', (status, terminal) => {
    expect(isTerminal(status)).toBe(terminal);
  });

  it('has no outcome while pending', () => {
    expect(gateOutcomeFor(open())).toBeNull();
  });
});
