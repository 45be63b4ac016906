import type { Role } from 'gatehouse-hitl-core';

const RANK: Record<Role, number> = { viewer: 0, developer: 1, tech_lead: 2, admin: 3 };

/** Whether `role` is at least `minimum` (viewer < developer < tech_lead < admin). */
export function atLeast(role: Role, minimum: Role): boolean {
  return RANK[role] >= RANK[minimum];
}

export const ROLE_LABEL: Record<Role, string> = {
  viewer: 'Viewer',
  developer: 'Developer',
  tech_lead: 'Tech lead',
  admin: 'Admin',
};
