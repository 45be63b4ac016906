import { hasRole, ROLES, type Role } from 'gatehouse-hitl-core';

/** One line of the group → role mapping: people in `group` (or anyone, for `*`) get `role`. */
export interface SsoRoleMapping {
  group: string;
  role: Role;
}

/** Single sign-on through an OpenID provider (docs/sso.md). */
export interface SsoConfig {
  /** The provider's issuer URL; its discovery document is read from there (GATEHOUSE_SSO_ISSUER). */
  issuer: string;
  /** Gatehouse's client id at the provider (GATEHOUSE_SSO_CLIENT_ID). */
  clientId: string;
  /** The client secret (GATEHOUSE_SSO_CLIENT_SECRET). @default null: a public client, PKCE only */
  clientSecret: string | null;
  /** Scopes asked for (GATEHOUSE_SSO_SCOPES, space-separated). @default 'openid profile email' */
  scopes: string;
  /** The claim listing the person's groups (GATEHOUSE_SSO_GROUPS_CLAIM). @default 'groups' */
  groupsClaim: string;
  /** Group → role, e.g. `gatehouse-admins: admin, leads: tech_lead, *: developer` (GATEHOUSE_SSO_ROLES). */
  roles: SsoRoleMapping[];
  /** What the sign-in button calls the provider (GATEHOUSE_SSO_NAME). @default 'single sign-on' */
  providerName: string;
}

/** Reads `group: role, group: role`; throws naming the variable and the entry at fault. */
export function parseSsoRoles(text: string, variable = 'GATEHOUSE_SSO_ROLES'): SsoRoleMapping[] {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) {
    throw new Error(
      `invalid environment: ${variable}: name at least one "group: role" (e.g. "*: developer")`,
    );
  }
  return entries.map((entry) => {
    const at = entry.lastIndexOf(':');
    const group = entry.slice(0, Math.max(at, 0)).trim();
    const role = entry.slice(at + 1).trim();
    if (at <= 0 || group === '' || !(ROLES as readonly string[]).includes(role)) {
      throw new Error(
        `invalid environment: ${variable}: "${entry}" is not "group: role" with a role of ${ROLES.join(', ')}`,
      );
    }
    return { group, role: role as Role };
  });
}

/** The highest role any of the person's groups maps to (`*` maps everyone); null when none does. */
export function roleForGroups(mapping: readonly SsoRoleMapping[], groups: readonly string[]): Role | null {
  let best: Role | null = null;
  for (const { group, role } of mapping) {
    if (group !== '*' && !groups.includes(group)) continue;
    if (best === null || !hasRole(best, role)) best = role;
  }
  return best;
}
