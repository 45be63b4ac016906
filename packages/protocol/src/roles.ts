/** People's roles, least privileged first. */
export const ROLES = ['viewer', 'developer', 'tech_lead', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** A role's place in `ROLES`, least privileged first. */
export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

/** True when `role` is at least `minimum`. */
export function hasRole(role: Role, minimum: Role): boolean {
  return roleRank(role) >= roleRank(minimum);
}
