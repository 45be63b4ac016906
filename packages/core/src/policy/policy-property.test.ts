import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyAlwaysGated } from '../destructive/destructive.js';
import { evaluatePolicy, evaluatePolicyNaive, type PolicyDecision } from './policy-engine.js';
import { actionKind, RESTRICTIVENESS } from './policy-index.js';
import { compilePolicy } from './policy-load.js';
import type { PolicyRequest } from './policy-schema.js';

const TOOLS = ['read_file', 'shell_execute', 'delete_file', 'write_file', 'deploy'];
const EVENTS = ['tool_call', 'operation', 'task_completion', 'planning_complete'];
const GATE_TYPES = ['code_review', 'phase_review'];
const CONDITIONS = [
  'true',
  'false',
  'confidence != null && confidence > 0.5',
  'args.flag == true',
  'has(args.n) && args.n > 3',
  'args.n > 3',
  'riskAtLeast("medium")',
  'alwaysGated()',
  'tool == "shell_execute"',
  'isDestructive(args.command)',
  'run != null && run.autonomy == "full"',
];

const subset = (pool: string[]) => fc.subarray(pool, { minLength: 1 });
const sometimes = <T>(arb: fc.Arbitrary<T>, weight = 1) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: arb, weight });

// Few distinct priorities and frequent matches, so ties, overrides and failing conditions are common.
const actionArb = fc.oneof(
  { arbitrary: fc.constantFrom('allow', 'deny', 'gate'), weight: 3 },
  fc.record({ gate: fc.record({ risk: fc.constantFrom('low', 'high') }) }),
);

const ruleArb = (priority: fc.Arbitrary<number>, action: fc.Arbitrary<unknown> = actionArb) =>
  fc.record({
    priority,
    action,
    enabled: fc.oneof({ arbitrary: fc.constant(true), weight: 5 }, fc.constant(false)),
    match: sometimes(
      fc.record(
        { tools: subset(TOOLS), events: subset(EVENTS), gateTypes: subset(GATE_TYPES) },
        { requiredKeys: [] },
      ),
    ),
    condition: sometimes(fc.constantFrom(...CONDITIONS), 3),
  });

// Spread priorities; or one priority for all rules, so decisions go to the tie-breaks, mostly between allows.
const policyArb = fc.record({
  defaultAction: fc.constantFrom('gate', 'deny'),
  rules: fc.oneof(
    fc.array(
      ruleArb(
        fc.oneof({ arbitrary: fc.integer({ min: 0, max: 3 }), weight: 4 }, fc.integer({ min: 0, max: 1000 })),
      ),
      {
        maxLength: 16,
      },
    ),
    fc.array(ruleArb(fc.constant(500)), { maxLength: 8 }),
    fc.array(ruleArb(fc.constant(500), fc.constantFrom('allow', 'allow', 'allow', 'gate')), { maxLength: 6 }),
  ),
});

const requestArb: fc.Arbitrary<PolicyRequest> = fc.record(
  {
    event: fc.constantFrom(...EVENTS, 'phase_boundary', 'custom'),
    tool: fc.constantFrom(...TOOLS, 'unknown_tool'),
    gateType: fc.constantFrom(...GATE_TYPES),
    args: fc.record(
      {
        flag: fc.boolean(),
        n: fc.integer({ min: 0, max: 6 }),
        command: fc.constantFrom('ls', 'rm -rf x', 'drop table t'),
      },
      { requiredKeys: [] },
    ),
    risk: fc.constantFrom('low', 'medium', 'high', 'critical'),
    confidence: fc.double({ min: 0, max: 1, noNaN: true }),
    agent: fc.constant({ id: 'agent-1' }),
    run: fc.record({
      id: fc.constant('run-1'),
      autonomy: fc.constantFrom('full', 'partial'),
      approvalMode: fc.constant('auto'),
    }),
  },
  { requiredKeys: ['event', 'args', 'agent'] },
) as fc.Arbitrary<PolicyRequest>;

function compile(input: { defaultAction: string; rules: object[] }) {
  const rules = input.rules.map((rule, i) => ({
    id: `rule-${i}`,
    reason: `reason ${i}`,
    ...Object.fromEntries(Object.entries(rule).filter(([, value]) => value !== undefined)),
  }));
  return compilePolicy({ name: 'generated', defaultAction: input.defaultAction, rules });
}

const outcome = (d: PolicyDecision) => ({
  action: d.action,
  ruleId: d.ruleId,
  reason: d.reason,
  gate: d.gate,
  alwaysGated: d.alwaysGated,
});

describe('policy properties', () => {
  it('indexed evaluation decides exactly as the naive one, evaluating no more', () => {
    fc.assert(
      fc.property(policyArb, fc.array(requestArb, { minLength: 1, maxLength: 8 }), (input, requests) => {
        const compiled = compile(input);
        for (const request of requests) {
          const indexed = evaluatePolicy(compiled, request);
          const naive = evaluatePolicyNaive(compiled, request);
          expect(outcome(indexed)).toEqual(outcome(naive));
          expect(indexed.evaluatedConditions).toBeLessThanOrEqual(naive.evaluatedConditions);
          for (const id of indexed.matched) expect(naive.matched).toContain(id);
          if (indexed.ruleId !== null) expect(indexed.matched).toContain(indexed.ruleId);
        }
      }),
      { numRuns: 600 },
    );
  });

  it('the deciding rule outranks every other matching rule', () => {
    fc.assert(
      fc.property(policyArb, requestArb, (input, request) => {
        const compiled = compile(input);
        const decision = evaluatePolicyNaive(compiled, request);
        if (decision.ruleId === null) {
          expect(decision.matched).toEqual([]);
          return;
        }
        const byId = new Map(compiled.policy.rules.map((r) => [r.id, r]));
        const failed = new Set(decision.errors.map((e) => e.ruleId));
        const rank = (id: string) => {
          const rule = byId.get(id)!;
          const action = failed.has(id) ? 'gate' : actionKind(rule);
          return rule.priority * 10 + RESTRICTIVENESS[action];
        };
        for (const id of decision.matched) expect(rank(id)).toBeLessThanOrEqual(rank(decision.ruleId));
      }),
      { numRuns: 200 },
    );
  });

  it('never allows on an empty policy, or one whose rules are all disabled', () => {
    fc.assert(
      fc.property(policyArb, requestArb, (input, request) => {
        const disabled = input.rules.map((rule) => ({ ...rule, enabled: false }));
        for (const rules of [[], disabled]) {
          const compiled = compile({ ...input, rules });
          for (const evaluate of [evaluatePolicy, evaluatePolicyNaive]) {
            const decision = evaluate(compiled, request);
            expect(decision.action).toBe(input.defaultAction);
            expect(decision.ruleId).toBeNull();
          }
        }
      }),
      { numRuns: 100 },
    );
  });

  it('never allows an always-gated action, whatever the policy', () => {
    fc.assert(
      fc.property(policyArb, requestArb, (input, request) => {
        const gated = { ...request, tool: 'shell_execute', args: { ...request.args, command: 'rm -rf x' } };
        expect(classifyAlwaysGated(gated).length).toBeGreaterThan(0);
        const compiled = compile(input);
        expect(evaluatePolicy(compiled, gated).action).not.toBe('allow');
      }),
      { numRuns: 100 },
    );
  });
});
