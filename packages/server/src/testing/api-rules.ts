import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { hasRole, type Role } from 'gatehouse-hitl-core';

/** Who may call one route, as docs/api.md says. */
export interface AccessRule {
  method: string;
  /** OpenAPI style: `/v1/gates/{id}`. */
  path: string;
  who: string;
  anyone: boolean;
  agent: boolean;
  /** Least role a person needs; null when no person may. */
  minRole: Role | null;
}

/** The principals the access matrix tries on every route. */
export type MatrixPrincipal = 'anonymous' | 'revokedAgent' | 'agent' | Role;

export const MATRIX_PRINCIPALS: readonly MatrixPrincipal[] = [
  'anonymous',
  'agent',
  'revokedAgent',
  'viewer',
  'developer',
  'tech_lead',
  'admin',
];

const DOCS_API = fileURLToPath(new URL('../../../../docs/api.md', import.meta.url));

/** Reads a `who` cell such as `viewer+ (agent: own)` or `agent (or developer+ with agentId)`. */
export function parseWho(who: string): Pick<AccessRule, 'anyone' | 'agent' | 'minRole'> {
  const text = who.toLowerCase();
  if (text.startsWith('anyone')) return { anyone: true, agent: true, minRole: 'viewer' };
  const agent = text.startsWith('agent') || text.includes('agent: own') || text.includes('or agent');
  const role = /(viewer|developer|tech_lead|admin)\+?/.exec(text)?.[1] as Role | undefined;
  if (role) return { anyone: false, agent, minRole: role };
  if (text.startsWith('person')) return { anyone: false, agent, minRole: 'viewer' };
  return { anyone: false, agent, minRole: null };
}

/** Every route row of docs/api.md. */
export function readAccessRules(file = DOCS_API): AccessRule[] {
  const rules: AccessRule[] = [];
  const row = /^\|\s*(GET|POST|PUT|PATCH|DELETE)\s*\|\s*`([^`]+)`\s*\|\s*([^|]+?)\s*\|/;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = row.exec(line);
    if (!match) continue;
    const [, method = '', path = '', who = ''] = match;
    rules.push({ method, path: path.replace(/:([A-Za-z]+)/g, '{$1}'), who, ...parseWho(who) });
  }
  return rules;
}

/** True when the rule lets this principal through the door (the object may still be missing). */
export function isAllowed(rule: AccessRule, principal: MatrixPrincipal): boolean {
  if (rule.anyone) return true;
  if (principal === 'anonymous' || principal === 'revokedAgent') return false;
  if (principal === 'agent') return rule.agent;
  return rule.minRole !== null && hasRole(principal, rule.minRole);
}

/** The status a refused principal must get. */
export function refusalStatus(principal: MatrixPrincipal): 401 | 403 {
  return principal === 'anonymous' || principal === 'revokedAgent' ? 401 : 403;
}
