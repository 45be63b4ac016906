import { describe, expect, it } from 'vitest';
import type { Gate } from '../schemas.js';
import { createGateCatalog } from './catalog.js';
import { type OpenGateInput, openGate } from './gate-open.js';
import { needsSignature } from './gate-state.js';

const catalog = createGateCatalog();
const START = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

function open(input: Partial<OpenGateInput> = {}): Gate {
  return openGate(
    { type: 'tool_call', timeoutMs: 10 * MINUTE, ...input },
    { now: START, id: 'gate_1', catalog },
  );
}

function errorOf(run: () => unknown): { code: string; message: string; details: Record<string, unknown> } {
  try {
    run();
  } catch (error) {
    return error as { code: string; message: string; details: Record<string, unknown> };
  }
  throw new Error('expected an error');
}

describe('openGate', () => {
  it('builds a pending gate from the type definition', () => {
    const gate = open({ title: 'Delete build/', runId: 'run_1', agentId: 'agent_1', requestedBy: 'agent_1' });
    expect(gate).toMatchObject({
      id: 'gate_1',
      type: 'tool_call',
      status: 'pending',
      threshold: 'conditional',
      risk: 'medium',
      title: 'Delete build/',
      timeoutAt: START + 10 * MINUTE,
      timeoutAction: 'deny',
      minRole: 'developer',
      requiredApprovals: 1,
      approvals: [],
      signatureRequired: false,
      steerable: true,
      escalationChain: ['tech_lead', 'admin'],
      decision: null,
    });
    expect(gate.options.map((o) => o.id)).toEqual(['approve', 'approve_always', 'reject', 'steer']);
  });

  it('waits indefinitely without a timeout and takes the type title by default', () => {
    const gate = open({ timeoutMs: undefined });
    expect(gate.timeoutAt).toBeNull();
    expect(gate.title).toBe('Tool call approval');
  });

  it('copies action, context and options so later changes to the input do not leak in', () => {
    const action = { tool: 'bash', args: { command: 'ls' } };
    const context = { cwd: '/repo' };
    const gate = open({ action, context, payloadHash: 'h1', artifacts: ['a.ts'] });
    action.args.command = 'rm -rf /';
    context.cwd = '/';
    expect(gate.action?.args.command).toBe('ls');
    expect(gate.context.cwd).toBe('/repo');
    expect(gate.options[0]).not.toBe(catalog.get('tool_call').options[0]);
    expect(gate.payloadHash).toBe('h1');
  });

  it('never lowers the minimum role of the type but may raise it', () => {
    expect(open({ type: 'destructive_action', minRole: 'developer' }).minRole).toBe('tech_lead');
    expect(open({ minRole: 'admin' })).toMatchObject({ minRole: 'admin', escalationChain: [] });
  });

  it('keeps a mandatory type mandatory and lets other types change threshold', () => {
    expect(open({ type: 'intent_approval', threshold: 'advisory' }).threshold).toBe('mandatory');
    expect(open({ threshold: 'advisory' }).threshold).toBe('advisory');
  });

  it.each([
    ['false_positive_override', 'medium', undefined, true],
    ['destructive_action', 'critical', undefined, true],
    ['destructive_action', 'high', undefined, false],
    ['recovery_escalation', 'critical', undefined, false],
    ['tool_call', 'low', true, true],
  ] as const)('derives the signature flag for %s at %s risk', (type, risk, signature, expected) => {
    const gate = open({ type, risk, signature });
    expect(gate.signatureRequired).toBe(expected);
    expect(needsSignature(gate)).toBe(expected);
  });

  it('never waives a signature the type requires', () => {
    expect(open({ type: 'false_positive_override', signature: false }).signatureRequired).toBe(true);
  });

  it('allows proceed on timeout for a medium-risk tool call', () => {
    expect(open({ timeoutAction: 'proceed' }).timeoutAction).toBe('proceed');
  });

  it.each([
    ['a mandatory gate', { type: 'intent_approval' }, /mandatory/],
    ['a destructive action gate', { type: 'destructive_action' }, /mandatory/],
    ['a recovery gate', { type: 'recovery_escalation', risk: 'low' }, /mandatory/],
    ['a high-risk call', { risk: 'high' }, /high/],
    ['an always-gated action', { action: { tool: 'delete_file', args: { path: 'a.ts' } } }, /always gated/],
    ['an action flagged always gated', { alwaysGated: true }, /always gated/],
    ['a destructive action', { destructive: true }, /destructive/],
    ['a gate without an approving option', { type: 'constraint_exception' }, /no approving option/],
  ] as const)('refuses proceed on timeout for %s', (_case, input, message) => {
    const error = errorOf(() => open({ ...input, timeoutAction: 'proceed' } as Partial<OpenGateInput>));
    expect(error.code).toBe('TIMEOUT_ACTION_NOT_ALLOWED');
    expect(error.message).toMatch(message);
  });

  it('falls back to deny when a type defaults to proceed but this gate may not', () => {
    const local = createGateCatalog();
    const base = local.get('tool_call');
    local.register({ ...base, type: 'quick_check', defaultTimeoutAction: 'proceed' });
    const input = { type: 'quick_check', timeoutMs: MINUTE };
    expect(openGate(input, { now: START, id: 'g', catalog: local }).timeoutAction).toBe('proceed');
    expect(openGate({ ...input, risk: 'high' }, { now: START, id: 'g', catalog: local }).timeoutAction).toBe(
      'deny',
    );
  });

  it.each([
    ['timeoutMs', { timeoutMs: 0 }, /between 1s and 30d/],
    ['timeoutMs', { timeoutMs: 31 * 24 * 60 * MINUTE }, /between 1s and 30d/],
    ['requiredApprovals', { requiredApprovals: 0 }, /1 to 20/],
    ['requiredApprovals', { requiredApprovals: 1.5 }, /1 to 20/],
    ['confidence', { confidence: 1.2 }, /between 0 and 1/],
    ['title', { title: '  ' }, /non-empty/],
    ['assignees[1]', { assignees: ['ana', ''] }, /non-empty/],
    ['assignees', { assignees: ['ana'], requiredApprovals: 2 }, /only 1 people/],
  ] as const)('refuses a bad %s with VALIDATION_FAILED', (field, input, message) => {
    const error = errorOf(() => open(input as Partial<OpenGateInput>));
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', details: { field } });
    expect(error.message).toMatch(message);
  });

  it('refuses an unknown gate type', () => {
    expect(errorOf(() => open({ type: 'nope' })).code).toBe('UNKNOWN_GATE_TYPE');
  });

  it('removes duplicate assignees and keeps a confidence', () => {
    expect(open({ assignees: ['ana', 'ana', 'bo'], confidence: 0.4 })).toMatchObject({
      assignees: ['ana', 'bo'],
      confidence: 0.4,
    });
  });
});

describe('escalation chain', () => {
  it('keeps only the given roles that lie above the minimum role', () => {
    expect(open({ escalationChain: ['viewer', 'admin', 'developer'] }).escalationChain).toEqual(['admin']);
  });
});
