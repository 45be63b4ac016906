import { describe, expect, it } from 'vitest';
import { isSameCaller, type Principal } from './principal.js';

const agent: Principal = { kind: 'agent', id: 'agent_a' };
const actingAgent: Principal = { kind: 'agent', id: 'agent_a', actor: { user: 'ana', groups: ['eng'] } };
const person: Principal = { kind: 'user', id: 'user_a', name: 'ana', role: 'developer' };
const anonymous: Principal = { kind: 'anonymous' };

describe('isSameCaller', () => {
  it('holds for the same agent, acting for the same person, and for the same person in the same role', () => {
    expect(isSameCaller(agent, { kind: 'agent', id: 'agent_a' })).toBe(true);
    expect(
      isSameCaller(actingAgent, { kind: 'agent', id: 'agent_a', actor: { user: 'ana', groups: ['eng'] } }),
    ).toBe(true);
    expect(isSameCaller(person, { ...person, name: 'Ana B.' })).toBe(true);
  });

  it('fails for a revoked credential, another agent or person, another actor, or another role', () => {
    expect(isSameCaller(agent, anonymous)).toBe(false);
    expect(isSameCaller(agent, { kind: 'agent', id: 'agent_b' })).toBe(false);
    expect(isSameCaller(agent, actingAgent)).toBe(false);
    expect(
      isSameCaller(actingAgent, { kind: 'agent', id: 'agent_a', actor: { user: 'bo', groups: ['eng'] } }),
    ).toBe(false);
    expect(
      isSameCaller(actingAgent, { kind: 'agent', id: 'agent_a', actor: { user: 'ana', groups: [] } }),
    ).toBe(false);
    expect(
      isSameCaller(
        { kind: 'agent', id: 'agent_a', actor: { user: 'ana', groups: ['eng,ops'] } },
        { kind: 'agent', id: 'agent_a', actor: { user: 'ana', groups: ['eng', 'ops'] } },
      ),
    ).toBe(false);
    expect(isSameCaller(person, anonymous)).toBe(false);
    expect(isSameCaller(person, { ...person, role: 'viewer' })).toBe(false);
    expect(isSameCaller(person, { ...person, role: 'admin' })).toBe(false);
    expect(isSameCaller(person, { ...person, id: 'user_b' })).toBe(false);
    expect(isSameCaller(person, agent)).toBe(false);
  });
});
