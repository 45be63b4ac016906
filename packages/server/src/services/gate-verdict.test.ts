import type { ApprovalMode, PolicyDecision } from '@gatehouse/core';
import { describe, expect, it } from 'vitest';
import { decideVerdict, type VerdictInput } from './gate-verdict.js';

function policy(action: PolicyDecision['action']): PolicyDecision {
  return {
    action,
    ruleId: `rule-${action}`,
    reason: `policy says ${action}`,
    matched: [],
    evaluatedConditions: 0,
    errors: [],
    ...(action === 'gate' ? { gate: { type: 'tool_call', risk: 'high' as const } } : {}),
  };
}

function input(
  overrides: Partial<VerdictInput> & { mode?: ApprovalMode | null; threshold?: number },
): VerdictInput {
  const { mode = null, threshold = 0.8, ...rest } = overrides;
  return {
    policy: policy('allow'),
    run: mode === null ? null : { approvalMode: mode, confidenceThreshold: threshold },
    confidence: null,
    alwaysGated: false,
    readOnly: false,
    rememberedRuleId: null,
    fallbackGateType: 'tool_call',
    autoProceedDelayMs: 10_000,
    canAutoProceed: true,
    ...rest,
  };
}

type Row = [string, VerdictInput, string, string, Record<string, unknown>?];

const rows: Row[] = [
  [
    'a policy deny stays denied in any mode',
    input({ policy: policy('deny'), mode: 'auto', confidence: 1 }),
    'denied',
    'policy',
  ],
  [
    'a policy gate gates',
    input({ policy: policy('gate') }),
    'gated',
    'policy',
    { type: 'tool_call', risk: 'high' },
  ],
  [
    'a remembered rule lets a policy gate through',
    input({ policy: policy('gate'), rememberedRuleId: 'rule_1' }),
    'allowed',
    'remembered_rule',
  ],
  [
    'a remembered rule never covers an always-gated action',
    input({ policy: policy('gate'), rememberedRuleId: 'rule_1', alwaysGated: true }),
    'gated',
    'policy',
  ],
  [
    'high confidence in auto mode never lifts a policy gate',
    input({ policy: policy('gate'), mode: 'auto', confidence: 0.95 }),
    'gated',
    'policy',
  ],
  ['an allow without a run is allowed', input({}), 'allowed', 'policy'],
  [
    'manual mode gates an allowed step',
    input({ mode: 'manual' }),
    'gated',
    'approval_mode',
    { type: 'tool_call' },
  ],
  ['manual mode keeps reads allowed', input({ mode: 'manual', readOnly: true }), 'allowed', 'policy'],
  [
    'manual mode respects a remembered rule',
    input({ mode: 'manual', rememberedRuleId: 'rule_2' }),
    'allowed',
    'remembered_rule',
  ],
  ['auto mode proceeds at 0.8', input({ mode: 'auto', confidence: 0.8 }), 'allowed', 'policy'],
  [
    'auto mode waits 10s then proceeds at 0.6',
    input({ mode: 'auto', confidence: 0.6 }),
    'gated',
    'approval_mode',
    { type: 'tool_call', timeoutAction: 'proceed', timeoutSeconds: 10 },
  ],
  [
    'auto mode waits without auto-proceed where the gate forbids it',
    input({ mode: 'auto', confidence: 0.6, canAutoProceed: false }),
    'gated',
    'approval_mode',
    { type: 'tool_call' },
  ],
  [
    'auto mode hard-stops below 0.5',
    input({ mode: 'auto', confidence: 0.3 }),
    'gated',
    'approval_mode',
    { type: 'tool_call' },
  ],
  [
    'auto mode without a confidence leaves the policy to decide',
    input({ mode: 'auto' }),
    'allowed',
    'policy',
  ],
  [
    'auto mode waits for always-gated steps',
    input({ mode: 'auto', confidence: 0.99, alwaysGated: true }),
    'gated',
    'approval_mode',
  ],
  [
    'confidence_threshold proceeds at the run threshold',
    input({ mode: 'confidence_threshold', threshold: 0.7, confidence: 0.7 }),
    'allowed',
    'policy',
  ],
  [
    'confidence_threshold gates below the run threshold',
    input({ mode: 'confidence_threshold', threshold: 0.9, confidence: 0.85 }),
    'gated',
    'approval_mode',
  ],
  [
    'confidence_threshold keeps reads allowed',
    input({ mode: 'confidence_threshold', confidence: 0.1, readOnly: true }),
    'allowed',
    'policy',
  ],
];

describe('decideVerdict', () => {
  it.each(rows)('%s', (_name, given, outcome, via, gate) => {
    const verdict = decideVerdict(given);
    expect(verdict.outcome).toBe(outcome);
    expect(verdict.via).toBe(via);
    if (gate !== undefined && verdict.outcome === 'gated') expect(verdict.gate).toEqual(gate);
  });

  it('names the remembered rule that allowed the step', () => {
    const verdict = decideVerdict(input({ policy: policy('gate'), rememberedRuleId: 'rule_9' }));
    expect(verdict.ruleId).toBe('rule_9');
  });

  it('rounds the auto-proceed delay up to whole seconds', () => {
    const verdict = decideVerdict(input({ mode: 'auto', confidence: 0.7, autoProceedDelayMs: 1500 }));
    expect(verdict.outcome === 'gated' && verdict.gate.timeoutSeconds).toBe(2);
  });
});
