import { ROLES, type Role } from './enums.js';

/** A role's place in `ROLES`, least privileged first. */
export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

/** True when `role` is at least `minimum`. */
export function hasRole(role: Role, minimum: Role): boolean {
  return roleRank(role) >= roleRank(minimum);
}
