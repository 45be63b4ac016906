import { describe, expect, it } from 'vitest';
import { ROLES } from './enums.js';
import { hasRole, roleRank } from './roles.js';

describe('role ranks', () => {
  it('ranks roles least privileged first', () => {
    expect(ROLES.map(roleRank)).toEqual([0, 1, 2, 3]);
  });

  it.each([
    ['admin', 'tech_lead', true],
    ['tech_lead', 'tech_lead', true],
    ['developer', 'tech_lead', false],
    ['viewer', 'developer', false],
  ] as const)('%s has at least %s: %s', (role, minimum, expected) => {
    expect(hasRole(role, minimum)).toBe(expected);
  });
});
