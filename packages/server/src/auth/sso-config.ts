import { hasRole, ROLES, type Role } from 'gatehouse-hitl-core';
import type { McpOAuthConfig } from './mcp-oauth.js';

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

/** The environment variables single sign-on and OAuth for MCP read, as the server's config parsed them. */
export interface SsoEnv {
  GATEHOUSE_SSO_ISSUER?: string | undefined;
  GATEHOUSE_SSO_CLIENT_ID?: string | undefined;
  GATEHOUSE_SSO_CLIENT_SECRET?: string | undefined;
  GATEHOUSE_SSO_SCOPES: string;
  GATEHOUSE_SSO_GROUPS_CLAIM: string;
  GATEHOUSE_SSO_ROLES?: string | undefined;
  GATEHOUSE_SSO_NAME: string;
  GATEHOUSE_MCP_OAUTH_AGENT?: string | undefined;
}

/** An issuer over plain http is only for a provider on this host (a test or a laptop). */
export function ssoConfigFromEnv(e: SsoEnv): SsoConfig | null {
  if (e.GATEHOUSE_SSO_ISSUER === undefined) {
    if (e.GATEHOUSE_SSO_CLIENT_ID !== undefined || e.GATEHOUSE_SSO_ROLES !== undefined) {
      throw new Error(
        'invalid environment: GATEHOUSE_SSO_ISSUER: required when GATEHOUSE_SSO_CLIENT_ID or _ROLES is set',
      );
    }
    return null;
  }
  const issuer = new URL(e.GATEHOUSE_SSO_ISSUER);
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && loopback)) {
    throw new Error(
      'invalid environment: GATEHOUSE_SSO_ISSUER: must be https:// (http:// only on 127.0.0.1 or localhost)',
    );
  }
  for (const name of ['GATEHOUSE_SSO_CLIENT_ID', 'GATEHOUSE_SSO_ROLES'] as const) {
    if (e[name] === undefined)
      throw new Error(`invalid environment: ${name}: required with GATEHOUSE_SSO_ISSUER`);
  }
  const scopes = e.GATEHOUSE_SSO_SCOPES.split(/\s+/).filter((scope) => scope !== '');
  if (!scopes.includes('openid')) {
    throw new Error('invalid environment: GATEHOUSE_SSO_SCOPES: must include openid');
  }
  return {
    issuer: e.GATEHOUSE_SSO_ISSUER,
    clientId: e.GATEHOUSE_SSO_CLIENT_ID as string,
    clientSecret: e.GATEHOUSE_SSO_CLIENT_SECRET ?? null,
    scopes: scopes.join(' '),
    groupsClaim: e.GATEHOUSE_SSO_GROUPS_CLAIM,
    roles: parseSsoRoles(e.GATEHOUSE_SSO_ROLES as string),
    providerName: e.GATEHOUSE_SSO_NAME,
  };
}

/** OAuth for MCP over HTTP: the agent MCP clients act as, with tokens from the sign-on provider. */
export function mcpOAuthConfigFromEnv(e: SsoEnv): McpOAuthConfig | null {
  if (e.GATEHOUSE_MCP_OAUTH_AGENT === undefined) return null;
  if (e.GATEHOUSE_SSO_ISSUER === undefined) {
    throw new Error(
      'invalid environment: GATEHOUSE_MCP_OAUTH_AGENT: needs GATEHOUSE_SSO_ISSUER, the provider whose tokens MCP clients bring',
    );
  }
  return { agentName: e.GATEHOUSE_MCP_OAUTH_AGENT };
}
