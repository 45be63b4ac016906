import { describe, expect, it } from 'vitest';
import { BUILTIN_GATE_TYPES } from '../gate-types/index.js';
import type { Gate } from '../schemas.js';
import { makeGate } from '../testing/gates.js';
import { alwaysRefusal, batchEligibility, canOfferAlways } from './decision-safety.js';

const TOOL_OPTIONS = BUILTIN_GATE_TYPES.find((definition) => definition.type === 'tool_call')!.options;

/** A plain tool-call gate that a batch may end. */
function toolGate(overrides: Partial<Gate> = {}): Gate {
  return makeGate('tool_call', {
    threshold: 'conditional',
    risk: 'medium',
    options: [...TOOL_OPTIONS],
    action: { tool: 'shell', args: { command: 'make lint' } },
    ...overrides,
  });
}

describe('batchEligibility', () => {
  it('lets a batch end a low or medium risk, non-mandatory, single-approval, unsigned tool call', () => {
    expect(batchEligibility(toolGate())).toEqual({ eligible: true });
    expect(batchEligibility(toolGate({ risk: 'low', threshold: 'advisory' }))).toEqual({ eligible: true });
  });

  it.each([
    [
      'a production deploy',
      makeGate('deployment_approval', { threshold: 'conditional', risk: 'low' }),
      'gate_type',
      /deployment_approval/,
    ],
    [
      'a test deletion',
      makeGate('destructive_action', { threshold: 'conditional', risk: 'low' }),
      'gate_type',
      /destructive_action/,
    ],
    [
      'a CRITICAL recovery gate',
      makeGate('recovery_escalation', { risk: 'critical' }),
      'gate_type',
      /recovery_escalation/,
    ],
    [
      'a false positive override',
      makeGate('false_positive_override', { threshold: 'advisory' }),
      'gate_type',
      /false_positive_override/,
    ],
    ['a high risk call', toolGate({ risk: 'high' }), 'risk', /risk is high/],
    ['a critical risk call', toolGate({ risk: 'critical' }), 'risk', /risk is critical/],
    ['a mandatory gate', toolGate({ threshold: 'mandatory' }), 'threshold', /mandatory/],
    ['a 2-of-M gate', toolGate({ requiredApprovals: 2 }), 'approvals', /2 approvals/],
    ['a signed gate', toolGate({ signatureRequired: true }), 'signature', /signed/],
    [
      'an always-gated rm -rf && DROP TABLE',
      toolGate({ action: { tool: 'shell', args: { command: 'rm -rf data && psql -c "DROP TABLE users"' } } }),
      'always_gated',
      /always gated .*Deleting files.*Dropping database tables/,
    ],
    [
      'a call the agent marks destructive',
      toolGate({ context: { destructive: true } }),
      'destructive',
      /destructive/,
    ],
  ])('excludes %s and says why', (_name, gate, rule, reason) => {
    const result = batchEligibility(gate);
    expect(result).toMatchObject({ eligible: false, rule });
    expect(result.eligible ? '' : result.reason).toMatch(reason);
  });
});

describe('canOfferAlways', () => {
  it('offers Always on a plain tool call', () => {
    expect(canOfferAlways(toolGate())).toBe(true);
    expect(alwaysRefusal(toolGate())).toBeNull();
  });

  it('never offers Always on an always-gated action, as the server refuses it', () => {
    const gate = toolGate({ action: { tool: 'shell', args: { command: 'rm -rf build' } } });
    expect(canOfferAlways(gate)).toBe(false);
    expect(alwaysRefusal(gate)).toMatch(/always gated/);
  });

  it('never offers Always when the gate is not about a tool call or has no Always option', () => {
    expect(canOfferAlways(toolGate({ action: null }))).toBe(false);
    expect(canOfferAlways(toolGate({ action: { operation: 'deploy', args: {} } }))).toBe(false);
    expect(canOfferAlways(makeGate('code_review', { action: { tool: 'shell', args: {} } }))).toBe(false);
  });
});
