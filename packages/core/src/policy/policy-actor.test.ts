import { describe, expect, it } from 'vitest';
import { evaluatePolicy, evaluatePolicyNaive } from './policy-engine.js';
import { compilePolicy } from './policy-load.js';
import type { PolicyRequest } from './policy-schema.js';

const request: PolicyRequest = {
  event: 'tool_call',
  tool: 'ledger__transfer',
  args: { amount: 500 },
  agent: { id: 'agent-gateway', profile: null },
};

const compiled = compilePolicy({
  name: 'per-person',
  defaultAction: 'gate',
  rules: [
    {
      id: 'finance-transfers',
      priority: 100,
      match: { tools: ['ledger__transfer'] },
      condition: '"finance" in actor.groups',
      action: 'allow',
      reason: 'Finance moves money.',
    },
    {
      id: 'no-interns',
      priority: 200,
      condition: 'actor.user == "ivan"',
      action: 'deny',
      reason: 'Interns call no ledger tools.',
    },
  ],
});

describe.each([evaluatePolicy, evaluatePolicyNaive])('%o: the person a client acts for', (evaluate) => {
  it('lets a condition read the groups of the person the client acts for', () => {
    const finance = { ...request, actor: { user: 'fran', groups: ['finance'] } };
    expect(evaluate(compiled, finance)).toMatchObject({ action: 'allow', ruleId: 'finance-transfers' });
    const sales = { ...request, actor: { user: 'sam', groups: ['sales'] } };
    expect(evaluate(compiled, sales)).toMatchObject({ action: 'gate', ruleId: null });
  });

  it('lets a condition name the person', () => {
    const intern = { ...request, actor: { user: 'ivan', groups: ['finance'] } };
    expect(evaluate(compiled, intern)).toMatchObject({ action: 'deny', ruleId: 'no-interns' });
  });

  it('reads a request for nobody in particular as no user and no groups', () => {
    expect(evaluate(compiled, request)).toMatchObject({ action: 'gate', ruleId: null });
  });
});
