import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluatePolicy } from './policy-engine.js';
import { compilePolicy } from './policy-load.js';
import { recordConditionOutcomes, replayConditionOutcomes } from './policy-replay.js';
import type { PolicyRequest } from './policy-schema.js';

const CONDITIONS = [
  'true',
  'args.n > 3',
  'has(args.n) && args.n > 3',
  'riskAtLeast("medium")',
  'args.xs.exists(x, x > 2)',
  'size(args.xs.filter(x, x > 1)) > 1',
  'alwaysGated()',
];
const TOOLS = ['read_file', 'shell', 'deploy'];

const policyArb = fc.record({
  name: fc.constant('replay'),
  rules: fc.uniqueArray(
    fc.record({
      id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
      priority: fc.integer({ min: 0, max: 3 }),
      action: fc.constantFrom('allow', 'deny', 'gate'),
      reason: fc.constant('test'),
      condition: fc.option(fc.constantFrom(...CONDITIONS), { nil: undefined }),
      match: fc.option(fc.record({ tools: fc.subarray(TOOLS, { minLength: 1 }) }), { nil: undefined }),
    }),
    { selector: (rule) => rule.id, maxLength: 6 },
  ),
});

const requestArb: fc.Arbitrary<PolicyRequest> = fc.record({
  event: fc.constant('tool_call'),
  tool: fc.constantFrom(...TOOLS),
  args: fc.record(
    { n: fc.integer({ min: 0, max: 6 }), xs: fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 4 }) },
    { requiredKeys: [] },
  ),
  risk: fc.constantFrom('low' as const, 'medium' as const, 'high' as const),
  agent: fc.constant({ id: 'agent-1' }),
});

describe('condition outcomes recorded in one place and replayed in another', () => {
  it('decide every request exactly as running the conditions does', () => {
    fc.assert(
      fc.property(policyArb, requestArb, (input, request) => {
        const compiled = compilePolicy(input);
        const outcomes = structuredClone(recordConditionOutcomes(compiled, request));
        const replayed = replayConditionOutcomes(compilePolicy(input), outcomes);
        expect(evaluatePolicy(replayed, request)).toEqual(evaluatePolicy(compiled, request));
      }),
    );
  });

  it('tells which rule is about to run, in evaluation order', () => {
    const compiled = compilePolicy({
      name: 'order',
      rules: [
        { id: 'low', priority: 1, condition: 'true', action: 'allow', reason: 'x' },
        { id: 'high', priority: 9, condition: 'args.n > 1', action: 'allow', reason: 'x' },
      ],
    });
    const started: number[] = [];
    const request: PolicyRequest = { event: 'tool_call', args: { n: 0 }, agent: { id: 'a' } };
    const outcomes = recordConditionOutcomes(compiled, request, (index) => started.push(index));
    expect(started).toEqual([1, 0]);
    expect(outcomes).toEqual([
      [1, { ok: true, value: false }],
      [0, { ok: true, value: true }],
    ]);
  });

  it('gates when a condition has no recorded outcome', () => {
    const compiled = compilePolicy({
      name: 'missing',
      rules: [{ id: 'only', priority: 1, condition: 'true', action: 'allow', reason: 'x' }],
    });
    const request: PolicyRequest = { event: 'tool_call', tool: 'read_file', args: {}, agent: { id: 'a' } };
    const decision = evaluatePolicy(replayConditionOutcomes(compiled, []), request);
    expect(decision.action).toBe('gate');
    expect(decision.errors).toEqual([{ ruleId: 'only', message: expect.stringContaining('budget') }]);
  });
});
