import {
  type StandingScope,
  standingScopeRefusal,
  suggestStandingScopes,
} from '../destructive/command-scope.js';
import { classifyAlwaysGated } from '../destructive/destructive.js';
import { GatehouseError } from '../errors.js';
import { invalidField } from '../invalid-field.js';
import { type Action, type Gate, hasRole, type Role } from '../schemas.js';
import { alwaysRefusal } from './decision-safety.js';

/** Who a remembered rule applies to: this run, this agent, or everyone. */
export type RememberScope = 'run' | 'agent' | 'global';

/** The fields of a decision that ask to remember it. */
export interface RememberRequest {
  option: string;
  /** For approve_always: remember for this run, this agent, or everyone. @default 'run' */
  rememberScope?: RememberScope | undefined;
  rememberTtlSeconds?: number | undefined;
  /** What the rule covers within its tool; the first suggested scope when absent. */
  rememberMatch?: StandingScope | undefined;
}

/** The person deciding. */
export interface RememberingPerson {
  id: string;
  role: Role;
}

/** What an "approve always" decision remembers. */
export interface RememberedRuleDraft {
  scope: RememberScope;
  tool: string;
  match: StandingScope;
  runId: string | null;
  agentId: string | null;
  createdBy: string;
  ttlSeconds: number | null;
  sourceGateId: string;
}

/** The scope the person chose, checked against the gate's own call; else the first one suggested. */
function matchOf(action: Action, input: RememberRequest): StandingScope {
  if (input.rememberMatch === undefined) {
    const suggested = suggestStandingScopes(action).options[0];
    if (suggested === undefined)
      throw invalidField('remember.match', 'no scope fits this call; approve it once');
    return suggested;
  }
  const refusal = standingScopeRefusal(input.rememberMatch, action);
  if (refusal !== null)
    throw invalidField('remember.match', `${refusal}; choose one of the gate's suggested scopes`);
  return input.rememberMatch;
}

/**
 * The rule an "approve always" decision remembers (its scope, the call it covers and for how long),
 * or null for any other option; refuses remember fields on other options, a gate that is not about a
 * tool call or may never be approved for always, a scope the gate lacks, and a global rule below
 * tech_lead.
 */
export function rememberOf(
  gate: Gate,
  user: RememberingPerson,
  input: RememberRequest,
): RememberedRuleDraft | null {
  if (input.option !== 'approve_always') {
    if (
      input.rememberScope !== undefined ||
      input.rememberTtlSeconds !== undefined ||
      input.rememberMatch !== undefined
    ) {
      throw invalidField('remember', 'only an approve_always decision remembers a rule');
    }
    return null;
  }
  const tool = gate.action?.tool;
  if (gate.action === null || tool === undefined) {
    throw new GatehouseError('INVALID_OPTION', `gate ${gate.id} is not about a tool call; approve it once`, {
      field: 'option',
      option: input.option,
    });
  }
  const refusal = alwaysRefusal(gate);
  if (refusal !== null) {
    throw new GatehouseError(
      'INVALID_OPTION',
      `gate ${gate.id} cannot be approved for always: ${refusal}; use approve`,
      { field: 'option', option: input.option, categories: classifyAlwaysGated(gate.action) },
    );
  }
  const match = matchOf(gate.action, input);
  const scope = input.rememberScope ?? 'run';
  if (scope === 'run' && gate.runId === null)
    throw invalidField('remember.scope', 'the gate has no run; use agent or global');
  if (scope === 'agent' && gate.agentId === null)
    throw invalidField('remember.scope', 'the gate has no agent; use global');
  if (scope === 'global' && !hasRole(user.role, 'tech_lead')) {
    throw new GatehouseError(
      'ROLE_TOO_LOW',
      `a global rule needs the role tech_lead or higher (you are ${user.role})`,
      {
        required: 'tech_lead',
        actual: user.role,
      },
    );
  }
  return {
    scope,
    tool,
    match,
    runId: gate.runId,
    agentId: gate.agentId,
    createdBy: `user:${user.id}`,
    ttlSeconds: input.rememberTtlSeconds ?? null,
    sourceGateId: gate.id,
  };
}
