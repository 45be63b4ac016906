import { isAlwaysGated } from '../destructive/destructive.js';
import { GatehouseError } from '../errors.js';
import { invalidField } from '../invalid-field.js';
import {
  type Action,
  type Gate,
  type GateThreshold,
  type GateTypeDefinition,
  type RiskLevel,
  ROLES,
  type Role,
  roleRank,
  type SignatureRule,
  type TimeoutAction,
} from '../schemas.js';
import { type GateCatalog, proceedOnTimeoutRefusal } from './catalog.js';
import { isEditable } from './gate-editable.js';

/** The longest a gate may wait for a person: 30 days. */
export const MAX_GATE_TIMEOUT_MS = 30 * 24 * 60 * 60 * 1000;
const MIN_GATE_TIMEOUT_MS = 1000;
const MAX_REQUIRED_APPROVALS = 20;

/** What to open a gate for; anything left out comes from the gate type's definition. */
export interface OpenGateInput {
  type: string;
  /** One line: what the agent wants to do. @default the gate type's title */
  title?: string | undefined;
  risk?: RiskLevel | undefined;
  threshold?: GateThreshold | undefined;
  /** How long the gate waits for a person; null or absent waits indefinitely. */
  timeoutMs?: number | null | undefined;
  timeoutAction?: TimeoutAction | undefined;
  /** Distinct people who must approve (N of M). @default 1 */
  requiredApprovals?: number | undefined;
  /** Raises the type's minimum role; it never lowers it. */
  minRole?: Role | undefined;
  assignees?: readonly string[] | undefined;
  /** The requester may not decide the gate. @default false */
  separationOfDuties?: boolean | undefined;
  /** Ask for a signed decision even where the type's signature rule does not. */
  signature?: boolean | undefined;
  /** Roles the gate escalates to on timeout, in order; those not above its minimum role are dropped. @default every role above it */
  escalationChain?: readonly Role[] | undefined;
  action?: Action | null | undefined;
  /** Hash of the action computed by the caller; decisions bind to it. */
  payloadHash?: string | null | undefined;
  context?: Record<string, unknown> | undefined;
  artifacts?: readonly string[] | undefined;
  /** The agent's confidence on the 0–1 scale. */
  confidence?: number | null | undefined;
  requestedBy?: string | null | undefined;
  runId?: string | null | undefined;
  agentId?: string | null | undefined;
  policyRuleId?: string | null | undefined;
  /** The action falls under an always-gated category; also derived from `action`. */
  alwaysGated?: boolean | undefined;
  /** The action destroys data. */
  destructive?: boolean | undefined;
  /** False when a policy rule forbids approving the gate with edited arguments. */
  editable?: boolean | undefined;
}

/** Where the new gate's id, time and type definitions come from. */
export interface OpenGateOptions {
  now: number;
  id: string;
  catalog: GateCatalog;
}

function higherRole(a: Role, b: Role | undefined): Role {
  return b !== undefined && roleRank(b) > roleRank(a) ? b : a;
}

/** True when a signature rule asks for a signed decision at this risk. */
export function signatureRuleApplies(rule: SignatureRule, risk: RiskLevel): boolean {
  return rule === 'always' || (rule === 'critical' && risk === 'critical');
}

/** Distinct, non-empty person ids. */
export function checkAssignees(assignees: readonly string[], requiredApprovals: number): string[] {
  assignees.forEach((assignee, index) => {
    if (typeof assignee !== 'string' || assignee.trim() === '') {
      throw invalidField(`assignees[${index}]`, 'each assignee must be a non-empty person id');
    }
  });
  const unique = [...new Set(assignees)];
  if (unique.length > 0 && unique.length < requiredApprovals) {
    throw invalidField(
      'assignees',
      `${requiredApprovals} approvals are required but only ${unique.length} people are assigned; assign more or lower requiredApprovals`,
    );
  }
  return unique;
}

function checkTimeoutMs(timeoutMs: number | null | undefined): number | null {
  if (timeoutMs === undefined || timeoutMs === null) return null;
  if (!Number.isInteger(timeoutMs) || timeoutMs < MIN_GATE_TIMEOUT_MS || timeoutMs > MAX_GATE_TIMEOUT_MS) {
    throw invalidField(
      'timeoutMs',
      `timeout must be between 1s and 30d in whole milliseconds (got ${timeoutMs})`,
    );
  }
  return timeoutMs;
}

function checkRequiredApprovals(value: number | undefined): number {
  if (value === undefined) return 1;
  if (!Number.isInteger(value) || value < 1 || value > MAX_REQUIRED_APPROVALS) {
    throw invalidField(
      'requiredApprovals',
      `must be a whole number from 1 to ${MAX_REQUIRED_APPROVALS} (got ${value})`,
    );
  }
  return value;
}

function checkConfidence(value: number | null | undefined): number | null {
  if (value === undefined || value === null) return null;
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    throw invalidField('confidence', `must be between 0 and 1 (got ${value})`);
  }
  return value;
}

function checkTitle(title: string | undefined, fallback: string): string {
  if (title === undefined) return fallback;
  if (title.trim() === '' || title.length > 500) {
    throw invalidField('title', `must be one non-empty line of at most 500 characters (got ${title.length})`);
  }
  return title;
}

interface TimeoutSettings {
  definition: GateTypeDefinition;
  neverProceeds: boolean;
  input: OpenGateInput;
  risk: RiskLevel;
  threshold: GateThreshold;
  requiredApprovals: number;
  minRole: Role;
  signatureRequired: boolean;
}

function resolveTimeoutAction(settings: TimeoutSettings): TimeoutAction {
  const { definition, input, risk, threshold } = settings;
  const wanted = input.timeoutAction ?? definition.defaultTimeoutAction;
  if (wanted !== 'proceed') return wanted;
  const alwaysGated = input.alwaysGated === true || (input.action != null && isAlwaysGated(input.action));
  const refusal = proceedOnTimeoutRefusal({
    definition,
    risk,
    threshold,
    alwaysGated,
    destructive: input.destructive === true,
    requiredApprovals: settings.requiredApprovals,
    minRole: settings.minRole,
    signatureRequired: settings.signatureRequired,
    neverProceeds: settings.neverProceeds,
  });
  if (refusal === null) return 'proceed';
  // A type's default of "proceed" falls back to deny; only an explicit request is an error.
  if (input.timeoutAction === undefined) return 'deny';
  throw new GatehouseError(
    'TIMEOUT_ACTION_NOT_ALLOWED',
    `timeoutAction "proceed" is not allowed because ${refusal}; use "deny" or "escalate"`,
    { field: 'timeoutAction', type: definition.type, risk, reason: refusal },
  );
}

function resolveSettings(input: OpenGateInput, definition: GateTypeDefinition, neverProceeds: boolean) {
  const risk = input.risk ?? definition.defaultRisk;
  // A mandatory type stays mandatory whatever the caller asks for.
  const threshold =
    definition.threshold === 'mandatory' ? 'mandatory' : (input.threshold ?? definition.threshold);
  const minRole = higherRole(definition.minRole, input.minRole);
  const requiredApprovals = checkRequiredApprovals(input.requiredApprovals);
  // A caller may ask for a signature but never waive one the type requires.
  const signatureRequired = input.signature === true || signatureRuleApplies(definition.signature, risk);
  const timeoutSettings = {
    definition,
    neverProceeds,
    input,
    risk,
    threshold,
    requiredApprovals,
    minRole,
    signatureRequired,
  };
  return {
    risk,
    threshold,
    minRole,
    requiredApprovals,
    timeoutAction: resolveTimeoutAction(timeoutSettings),
    timeoutMs: checkTimeoutMs(input.timeoutMs),
    assignees: checkAssignees(input.assignees ?? [], requiredApprovals),
    escalationChain: (input.escalationChain ?? ROLES).filter((role) => roleRank(role) > roleRank(minRole)),
    signatureRequired,
  };
}

/**
 * Builds a new pending gate from its type's definition and the caller's overrides.
 * @example
 * const gate = openGate({ type: 'tool_call', timeoutMs: 60_000 }, { now: clock.now(), id: ids.next('gate'), catalog });
 */
export function openGate(input: OpenGateInput, options: OpenGateOptions): Gate {
  const spec = options.catalog.spec(input.type);
  const definition = spec.definition;
  const settings = resolveSettings(input, definition, spec.neverProceeds);
  const { timeoutMs, ...rest } = settings;
  return {
    id: options.id,
    type: definition.type,
    status: 'pending',
    ...rest,
    runId: input.runId ?? null,
    agentId: input.agentId ?? null,
    title: checkTitle(input.title, definition.title),
    action: input.action == null ? null : { ...input.action, args: { ...input.action.args } },
    payloadHash: input.payloadHash ?? null,
    context: { ...input.context },
    artifacts: [...(input.artifacts ?? [])],
    options: definition.options.map((option) => ({ ...option, requires: [...option.requires] })),
    confidence: checkConfidence(input.confidence),
    createdAt: options.now,
    timeoutAt: timeoutMs === null ? null : options.now + timeoutMs,
    approvals: [],
    separationOfDuties: input.separationOfDuties ?? false,
    requestedBy: input.requestedBy ?? null,
    steerable: definition.steerable,
    editable: isEditable({
      action: input.action,
      requiredApprovals: settings.requiredApprovals,
      options: definition.options,
      allowed: input.editable,
    }),
    policyRuleId: input.policyRuleId ?? null,
    decision: null,
  };
}
