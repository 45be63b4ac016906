import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { standingScopeRefusal } from '../destructive/command-scope.js';
import { isGatehouseError } from '../errors.js';
import { hasRole, ROLES, type Role } from '../schemas.js';
import { makeGate } from '../testing/gates.js';
import { alwaysRefusal } from './decision-safety.js';
import { type RememberRequest, rememberOf } from './remember-rule.js';

const COMMANDS = ['make lint', 'rm -rf build', 'npm test', 'git status', 'ls', 'curl https://example.com'];
const OPTIONS = ['approve', 'approve_always', 'reject', 'steer'];

const gateArb = fc
  .record({
    action: fc.option(
      fc.record({
        tool: fc.constantFrom('shell', 'bash'),
        args: fc.record({ command: fc.constantFrom(...COMMANDS) }),
      }),
      { nil: null },
    ),
    runId: fc.option(fc.constant('run_1'), { nil: null }),
    agentId: fc.option(fc.constant('agent_1'), { nil: null }),
  })
  .map((fields) => makeGate('tool_call', fields));
const personArb = fc.record({
  id: fc.constantFrom('user_a', 'user_b'),
  role: fc.constantFrom<Role>(...ROLES),
});
const requestArb: fc.Arbitrary<RememberRequest> = fc.record(
  {
    option: fc.constantFrom(...OPTIONS),
    rememberScope: fc.constantFrom('run' as const, 'agent' as const, 'global' as const),
    rememberTtlSeconds: fc.integer({ min: 60, max: 86_400 }),
  },
  { requiredKeys: ['option'] },
);

/** The rule, or the code of the error that refused it. */
function attempt(...args: Parameters<typeof rememberOf>) {
  try {
    return { rule: rememberOf(...args), code: null };
  } catch (error) {
    if (!isGatehouseError(error)) throw error;
    return { rule: null, code: error.code };
  }
}

describe('what an approve-always decision remembers, for any gate, person and request', () => {
  it('remembers nothing for any other option, and refuses remember fields there', () => {
    fc.assert(
      fc.property(gateArb, personArb, requestArb, (gate, person, request) => {
        if (request.option === 'approve_always') return;
        const asked = request.rememberScope !== undefined || request.rememberTtlSeconds !== undefined;
        expect(attempt(gate, person, request)).toEqual(
          asked ? { rule: null, code: 'VALIDATION_FAILED' } : { rule: null, code: null },
        );
      }),
    );
  });

  it('remembers the gate’s own tool and a scope that covers its call, for someone who may make it', () => {
    fc.assert(
      fc.property(gateArb, personArb, requestArb, (gate, person, request) => {
        const { rule } = attempt(gate, person, { ...request, option: 'approve_always' });
        if (rule === null) return;
        const scope = request.rememberScope ?? 'run';
        expect(rule).toMatchObject({
          scope,
          tool: gate.action?.tool,
          runId: gate.runId,
          agentId: gate.agentId,
          createdBy: `user:${person.id}`,
          ttlSeconds: request.rememberTtlSeconds ?? null,
          sourceGateId: gate.id,
        });
        expect(gate.action && standingScopeRefusal(rule.match, gate.action)).toBeNull();
        if (scope === 'run') expect(gate.runId).not.toBeNull();
        if (scope === 'agent') expect(gate.agentId).not.toBeNull();
        if (scope === 'global') expect(hasRole(person.role, 'tech_lead')).toBe(true);
      }),
    );
  });

  it('refuses a gate that is not about a tool call or is never approved for always, and a global rule below tech_lead', () => {
    fc.assert(
      fc.property(gateArb, personArb, (gate, person) => {
        const { rule, code } = attempt(gate, person, { option: 'approve_always', rememberScope: 'global' });
        if (alwaysRefusal(gate) !== null) expect(code).toBe('INVALID_OPTION');
        else if (!hasRole(person.role, 'tech_lead')) {
          expect(rule).toBeNull();
          expect(['ROLE_TOO_LOW', 'VALIDATION_FAILED']).toContain(code);
        }
      }),
    );
  });
});
