import { describe, expect, it } from 'vitest';
import type { Gate } from '../schemas.js';
import { createGateCatalog } from './catalog.js';
import { checkEditedArgs, editVerdictRefusal } from './gate-edit.js';
import { openGate } from './gate-open.js';
import { applyGateEvent } from './gate-state.js';
import type { Verdict } from './request-verdict.js';

const catalog = createGateCatalog();
const NOW = Date.UTC(2026, 0, 1);
const ORIGINAL_HASH = 'a'.repeat(64);
const EDITED_HASH = 'b'.repeat(64);

function shellGate(overrides: Parameters<typeof openGate>[0] = { type: 'tool_call' }): Gate {
  return openGate(
    { action: { tool: 'shell', args: { command: 'ls -la' } }, payloadHash: ORIGINAL_HASH, ...overrides },
    { now: NOW, id: 'gate_1', catalog },
  );
}

const gated = (gate: Record<string, unknown> = {}): Verdict => ({
  outcome: 'gated',
  ruleId: 'shell',
  reason: 'shell needs a person',
  via: 'policy',
  gate: { type: 'tool_call', ...gate },
});

describe('editable gates', () => {
  it('is editable with arguments, one approval and an approve option', () => {
    expect(shellGate().editable).toBe(true);
  });

  it.each([
    ['no action', { type: 'tool_call', action: null }],
    ['empty arguments', { type: 'tool_call', action: { tool: 'shell', args: {} } }],
    ['two approvals', { type: 'tool_call', requiredApprovals: 2 }],
    ['a policy that forbids it', { type: 'tool_call', editable: false }],
    ['no approve option', { type: 'question' }],
  ] as const)('is not editable with %s', (_why, overrides) => {
    expect(shellGate(overrides).editable).toBe(false);
  });
});

describe('checkEditedArgs', () => {
  it('refuses edits on a gate that is not editable, naming editedArgs', () => {
    const gate = shellGate({ type: 'tool_call', requiredApprovals: 2 });
    expect(() => checkEditedArgs(gate, { command: 'ls' })).toThrowError(/needs 2 approvals/);
  });

  it('names the argument that holds a hidden character', () => {
    try {
      checkEditedArgs(shellGate(), { command: 'ls\u202e -la' });
      expect.unreachable();
    } catch (error) {
      expect((error as { details: { field: string } }).details.field).toBe('editedArgs.command');
    }
  });

  it('refuses arguments that are not an object', () => {
    expect(() => checkEditedArgs(shellGate(), ['ls'])).toThrowError(/JSON object/);
  });
});

describe('editVerdictRefusal', () => {
  const gate = shellGate();
  const review = (verdict: Verdict, editedArgs: Record<string, unknown> = { command: 'ls' }) =>
    editVerdictRefusal({ gate, editedArgs, verdict, alwaysGated: false, catalog });

  it('accepts an edit the policy gates no more strictly', () => {
    expect(review(gated())).toBeNull();
    expect(review({ outcome: 'allowed', ruleId: null, reason: 'reads', via: 'policy' })).toBeNull();
  });

  it('refuses an edit the policy denies', () => {
    const denied: Verdict = { outcome: 'denied', ruleId: 'no-rm', reason: 'never rm', via: 'policy' };
    expect(review(denied)).toMatch(/denies the edited action: never rm/);
  });

  it.each([
    [{ minRole: 'admin' }, /role admin/],
    [{ requiredApprovals: 2 }, /2 approvals/],
    [{ signature: true }, /signed decision/],
    [{ risk: 'critical' }, /risk would be critical/],
    [{ type: 'destructive_action' }, /destructive_action gate/],
    [{ editable: false }, /forbids edits/],
  ] as const)('refuses an edit that would open a stricter gate (%j)', (settings, message) => {
    expect(review(gated(settings))).toMatch(message);
  });

  it('refuses an edit that turns the action destructive', () => {
    expect(review(gated(), { command: 'rm -rf /var/data' })).toMatch(/falls under/);
  });

  it('refuses an edit that adds one more always-gated category to an already high-risk gate', () => {
    const risky = openGate(
      {
        type: 'tool_call',
        risk: 'high',
        action: { tool: 'shell', args: { command: 'rm -rf build' } },
        payloadHash: ORIGINAL_HASH,
      },
      { now: NOW, id: 'gate_2', catalog },
    );
    const refusal = editVerdictRefusal({
      gate: risky,
      editedArgs: { command: 'rm -rf build && apt-get install -y foo' },
      verdict: gated({ risk: 'high' }),
      alwaysGated: true,
      catalog,
    });
    expect(refusal).toMatch(/system_packages/);
  });

  it('refuses an edit that moves a command into an argv array with a new category', () => {
    expect(review(gated(), { command: ['sh', '-c', 'rm -rf /var/data'] })).toMatch(/delete_files/);
  });

  it('keeps both hashes and both argument sets in the approved decision', () => {
    const decided = applyGateEvent(
      gate,
      {
        type: 'decide',
        option: 'approve',
        by: 'ana',
        edit: { args: { command: 'ls' }, payloadHash: EDITED_HASH },
      },
      NOW + 1,
    ).gate;
    expect(decided.action?.args).toEqual({ command: 'ls -la' });
    expect(decided.payloadHash).toBe(ORIGINAL_HASH);
    expect(decided.decision).toMatchObject({
      outcome: 'approved',
      editedArgs: { command: 'ls' },
      payloadHash: EDITED_HASH,
      originalPayloadHash: ORIGINAL_HASH,
    });
  });

  it('refuses edited arguments with any option but approve', () => {
    const edit = { args: { command: 'ls' }, payloadHash: EDITED_HASH };
    expect(() =>
      applyGateEvent(gate, { type: 'decide', option: 'approve_always', by: 'ana', edit }, NOW + 1),
    ).toThrowError(/only with option approve/);
  });
});
