import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PolicyDecision, PolicyDecisionGate } from '../policy/policy-engine.js';
import {
  type ApprovalMode,
  RISK_LEVELS,
  type RiskLevel,
  ROLES,
  roleRank,
  type TimeoutAction,
} from '../schemas.js';
import { createGateCatalog } from './catalog.js';
import { openGate } from './gate-open.js';
import { gateMayProceedOnTimeout } from './gate-state.js';
import {
  APPROVAL_MODE_RULE_ID,
  autoProceedAllowed,
  decideVerdict,
  type GatedVerdict,
  gateSettingsOf,
  POLICY_DEFAULT_RULE_ID,
  type VerdictInput,
} from './request-verdict.js';

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
    'policy',
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
    input({ mode: 'confidence_threshold', confidence: 0.3, readOnly: true }),
    'allowed',
    'policy',
  ],
  [
    'the zero band keeps reads allowed (seed 003: auto-approved reads are never prompted)',
    input({ mode: 'confidence_threshold', confidence: 0.1, readOnly: true }),
    'allowed',
    'policy',
  ],
  [
    'the zero band holds a write whatever the run threshold (seed 003: abort subtask, wait for a human)',
    input({ mode: 'confidence_threshold', confidence: 0.1, threshold: 0.05 }),
    'gated',
    'approval_mode',
    { type: 'tool_call', risk: 'high' },
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

describe('the law: whatever an agent sends only makes the outcome stricter', () => {
  const catalog = createGateCatalog();
  const types = catalog.list().map((definition) => definition.type);
  const risk = fc.constantFrom(...RISK_LEVELS);
  const timeoutAction = fc.constantFrom<TimeoutAction>('deny', 'escalate', 'proceed');
  const gateSettings = fc.record(
    {
      type: fc.constantFrom(...types),
      risk,
      timeoutSeconds: fc.integer({ min: 1, max: 3600 }),
      timeoutAction,
      minRole: fc.constantFrom(...ROLES),
      requiredApprovals: fc.integer({ min: 1, max: 3 }),
      signature: fc.boolean(),
    },
    { requiredKeys: ['type'] },
  );
  const policyDecision = fc.oneof(
    fc.constant(policy('allow')),
    fc.constant(policy('deny')),
    gateSettings.map((gate): PolicyDecision => ({ ...policy('gate'), gate })),
  );
  const run = fc.option(
    fc.record({
      approvalMode: fc.constantFrom<ApprovalMode>('auto', 'manual', 'confidence_threshold'),
      confidenceThreshold: fc.double({ min: 0.5, max: 1, noNaN: true }),
    }),
  );
  const agentSends = fc.record(
    {
      risk,
      timeoutSeconds: fc.integer({ min: 1, max: 3600 }),
      timeoutAction,
      confidence: fc.double({ min: 0, max: 1, noNaN: true }),
    },
    { requiredKeys: [] },
  );
  const rank = { allowed: 0, gated: 1, denied: 2 } as const;

  function outcome(decision: PolicyDecision, runSettings: VerdictInput['run'], sent: Partial<Sent>) {
    const fallback = 'tool_call';
    const definition = catalog.get(fallback);
    const verdict = decideVerdict({
      policy: decision,
      run: runSettings,
      confidence: sent.confidence ?? null,
      alwaysGated: false,
      readOnly: false,
      rememberedRuleId: null,
      fallbackGateType: fallback,
      autoProceedDelayMs: 10_000,
      canAutoProceed: autoProceedAllowed(definition, sent.risk, false),
    });
    if (verdict.outcome !== 'gated') return { verdict, gate: null };
    try {
      const settings = gateSettingsOf(verdict, sent, {
        definition: catalog.get(verdict.gate.type),
        alwaysGated: false,
      });
      return { verdict, gate: openGate(settings, { now: 0, id: 'gate_law', catalog }) };
    } catch (error) {
      // Refusing the request outright is the strictest outcome of all.
      if ((error as { code?: string }).code !== 'TIMEOUT_ACTION_NOT_ALLOWED') throw error;
      return { verdict: { ...verdict, outcome: 'denied' as const }, gate: null };
    }
  }

  type Sent = { risk: RiskLevel; timeoutSeconds: number; timeoutAction: TimeoutAction; confidence: number };

  it('never loosens the outcome, the risk, the approvals, the role, the signature or proceeding', () => {
    fc.assert(
      fc.property(policyDecision, run, agentSends, (decision, runSettings, sent) => {
        const base = outcome(decision, runSettings, {});
        const asked = outcome(decision, runSettings, sent);
        expect(rank[asked.verdict.outcome]).toBeGreaterThanOrEqual(rank[base.verdict.outcome]);
        if (asked.gate === null || base.gate === null) return;
        expect(RISK_LEVELS.indexOf(asked.gate.risk)).toBeGreaterThanOrEqual(
          RISK_LEVELS.indexOf(base.gate.risk),
        );
        expect(asked.gate.requiredApprovals).toBeGreaterThanOrEqual(base.gate.requiredApprovals);
        expect(roleRank(asked.gate.minRole)).toBeGreaterThanOrEqual(roleRank(base.gate.minRole));
        if (base.gate.signatureRequired) expect(asked.gate.signatureRequired).toBe(true);
        if (asked.gate.timeoutAction === 'proceed') {
          expect(base.gate.timeoutAction).toBe('proceed');
          expect(asked.gate.timeoutAt ?? Number.POSITIVE_INFINITY).toBeGreaterThanOrEqual(
            base.gate.timeoutAt ?? Number.POSITIVE_INFINITY,
          );
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('opens a gate that proceeds on timeout only inside the limits people cannot waive', () => {
    fc.assert(
      fc.property(policyDecision, run, agentSends, (decision, runSettings, sent) => {
        const { gate } = outcome(decision, runSettings, sent);
        if (gate === null || gate.timeoutAction !== 'proceed') return;
        expect(gateMayProceedOnTimeout(gate)).toBe(true);
        expect(gate.requiredApprovals).toBe(1);
        expect(gate.signatureRequired).toBe(false);
        expect(['low', 'medium']).toContain(gate.risk);
        expect(gate.threshold).not.toBe('mandatory');
        expect(roleRank(gate.minRole)).toBeLessThanOrEqual(roleRank('developer'));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('gateSettingsOf', () => {
  const catalog = createGateCatalog();
  const gated = (gate: PolicyDecisionGate) =>
    decideVerdict(input({ policy: { ...policy('gate'), gate } })) as GatedVerdict;
  const settingsOf = (gate: PolicyDecisionGate, sent: Parameters<typeof gateSettingsOf>[1]) =>
    gateSettingsOf(gated(gate), sent, {
      definition: catalog.get(gate.type),
      alwaysGated: false,
    });

  it('refuses an agent asking to proceed on timeout where no rule granted it, naming the field', () => {
    const refused = () => settingsOf({ type: 'tool_call' }, { timeoutSeconds: 1, timeoutAction: 'proceed' });
    expect(refused).toThrow(expect.objectContaining({ code: 'TIMEOUT_ACTION_NOT_ALLOWED' }));
    expect(refused).toThrow(/only a person’s policy rule grants it/);
  });

  it('accepts an agent asking to proceed where a rule already granted it', () => {
    const gate = { type: 'tool_call', timeoutAction: 'proceed' as const, timeoutSeconds: 60 };
    expect(settingsOf(gate, { timeoutAction: 'proceed' }).timeoutAction).toBe('proceed');
  });

  it('names the rule that opened the gate, the policy default or the approval mode when no rule did', () => {
    const definition = catalog.get('tool_call');
    const people = { definition, alwaysGated: false };
    const byRule = decideVerdict(input({ policy: policy('gate') })) as GatedVerdict;
    expect(gateSettingsOf(byRule, {}, people).policyRuleId).toBe('rule-gate');
    const byDefault = decideVerdict(
      input({ policy: { ...policy('gate'), ruleId: null, gate: { type: 'tool_call' } } }),
    ) as GatedVerdict;
    expect(gateSettingsOf(byDefault, {}, people).policyRuleId).toBe(POLICY_DEFAULT_RULE_ID);
    const byMode = decideVerdict(input({ mode: 'manual' })) as GatedVerdict;
    expect(byMode.via).toBe('approval_mode');
    expect(gateSettingsOf(byMode, {}, people).policyRuleId).toBe(APPROVAL_MODE_RULE_ID);
  });

  it('never lets an agent lower the gate type’s default risk', () => {
    expect(settingsOf({ type: 'deployment_approval' }, { risk: 'low' }).risk).toBe('high');
  });

  it.each([
    ['two approvals', { type: 'tool_call', timeoutAction: 'proceed' as const, requiredApprovals: 2 }],
    ['a signature', { type: 'tool_call', timeoutAction: 'proceed' as const, signature: true }],
    [
      'the role tech_lead',
      { type: 'tool_call', timeoutAction: 'proceed' as const, minRole: 'tech_lead' as const },
    ],
    ['high risk', { type: 'tool_call', timeoutAction: 'proceed' as const, risk: 'high' as const }],
  ])('turns a rule’s proceed-on-timeout into deny for a gate that needs %s', (_what, gate) => {
    expect(settingsOf(gate, {}).timeoutAction).toBe('deny');
  });

  it('keeps a rule’s proceed and only lets the agent make it later', () => {
    const gate = { type: 'tool_call', timeoutAction: 'proceed' as const, timeoutSeconds: 60 };
    expect(settingsOf(gate, { timeoutSeconds: 5 })).toMatchObject({
      timeoutAction: 'proceed',
      timeoutMs: 60_000,
    });
    expect(settingsOf(gate, { timeoutSeconds: 600 })).toMatchObject({ timeoutMs: 600_000 });
    expect(settingsOf(gate, { timeoutAction: 'deny', timeoutSeconds: 5 })).toMatchObject({
      timeoutAction: 'deny',
      timeoutMs: 5_000,
    });
  });
});
