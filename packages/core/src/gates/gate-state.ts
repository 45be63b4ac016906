import { type GateOutcome, gateOutcome } from 'gatehouse-hitl-protocol';
import { toIso } from '../clock.js';
import { isAlwaysGated } from '../destructive/destructive.js';
import { assertNever, GatehouseError } from '../errors.js';
import { invalidField } from '../invalid-field.js';
import {
  type ApprovalVote,
  type Decision,
  type Gate,
  type GateStatus,
  hasRole,
  type Role,
  roleRank,
  type TerminalGateStatus,
} from '../schemas.js';
import { NEVER_PROCEED_TYPES } from './catalog.js';
import { type ResolvedOption, resolveDecideOption } from './decide-option.js';
import { checkDecisionTargets } from './decision-targets.js';
import { checkAssignees, MAX_GATE_TIMEOUT_MS } from './gate-open.js';

/** A person's answer to a gate. */
export interface DecideEvent {
  type: 'decide';
  option: string;
  by: string;
  reason?: string | undefined;
  feedback?: string | undefined;
  instructions?: string | undefined;
  affectedArtifacts?: readonly string[] | undefined;
  signature?: string | undefined;
  payloadHash?: string | undefined;
  /** A question gate's answer. */
  answer?: string | undefined;
  /** The agent a delegate decision hands the task to (the caller checks that it exists). */
  delegateTo?: string | undefined;
  /** The limit an expand-constraint decision sets. */
  newLimit?: number | undefined;
  /** Approve with these arguments instead of the agent's; checked with `checkEditedArgs` and the policy first. */
  edit?: { args: Record<string, unknown>; payloadHash: string } | undefined;
  /** The person saw that a steer on this gate approves it, and means it. */
  confirmApproval?: boolean | undefined;
  /** A Whitelist decision on a finding: the entry's scope the person chose (`decisionWhitelistScope`). */
  whitelist?: Decision['whitelist'] | undefined;
}

/** The gate's deadline passed: deny, escalate or proceed as the gate's timeout action says. */
export interface ExpireEvent {
  type: 'expire';
  /** How long each escalation step waits. @default DEFAULT_ESCALATION_STEP_MS */
  escalationStepMs?: number | undefined;
}

export interface CancelEvent {
  type: 'cancel';
  by: string;
  reason: string;
}

/** Moves the deadline (snooze). */
export interface ExtendEvent {
  type: 'extend';
  until: number;
}

export interface AssignEvent {
  type: 'assign';
  assignees: readonly string[];
}

/** Everything that can happen to a gate. */
export type GateEvent = DecideEvent | ExpireEvent | CancelEvent | ExtendEvent | AssignEvent;

/** The gate after an event; `ended` is true when the event moved it to a terminal status. */
export interface GateTransition {
  gate: Gate;
  changed: boolean;
  ended: boolean;
}

/** How long an escalated gate waits at each role of its escalation chain: one hour. */
export const DEFAULT_ESCALATION_STEP_MS = 60 * 60 * 1000;

/** Who decides gates that time out. */
export const TIMEOUT_ACTOR = 'system:timeout';

/** True for every status except `pending`. */
export function isTerminal(status: GateStatus): status is TerminalGateStatus {
  return status !== 'pending';
}

const unchanged = (gate: Gate): GateTransition => ({ gate, changed: false, ended: false });

function end(gate: Gate, decision: Decision): GateTransition {
  return { gate: { ...gate, status: decision.outcome, decision }, changed: true, ended: true };
}

function notPending(gate: Gate, what: string): GatehouseError {
  return new GatehouseError(
    'GATE_NOT_PENDING',
    `cannot ${what} gate ${gate.id}: it is already ${gate.status}`,
    {
      gateId: gate.id,
      status: gate.status,
      winner: gate.decision,
    },
  );
}

function pastDeadline(gate: Gate, now: number): boolean {
  return gate.timeoutAt !== null && now >= gate.timeoutAt;
}

function expiredError(gate: Gate): GatehouseError {
  const at = gate.timeoutAt === null ? 'its deadline' : toIso(gate.timeoutAt);
  return new GatehouseError('GATE_EXPIRED', `gate ${gate.id} expired at ${at}`, {
    gateId: gate.id,
    timeoutAt: gate.timeoutAt,
  });
}

/** True when `path` is relative and stays inside the workspace (no absolute path, `..` segment or NUL). */
export function isWorkspacePath(path: string): boolean {
  if (typeof path !== 'string' || path.trim() === '' || path.length > 4096) return false;
  if (path.includes('\0') || /^[/\\~]/.test(path) || /^[a-zA-Z]:/.test(path)) return false;
  return !path.split(/[/\\]/).includes('..');
}

function checkArtifactPaths(paths: readonly string[]): string[] {
  paths.forEach((path, index) => {
    if (!isWorkspacePath(path)) {
      throw invalidField(
        `affectedArtifacts[${index}]`,
        `affectedArtifacts must be relative paths inside the workspace (got ${JSON.stringify(path)})`,
      );
    }
  });
  return [...paths];
}

const blank = (text: string | undefined): boolean => text === undefined || text.trim() === '';

/** Feedback as recorded: a steer that became another option carries its instructions as feedback. */
function feedbackOf({ mapping }: ResolvedOption, event: DecideEvent): string | undefined {
  if (mapping === 'steer_as_approval' || mapping === 'steer_as_feedback') {
    return joinText(event.feedback, event.instructions);
  }
  if (mapping === 'reject') return event.feedback ?? event.reason;
  return event.feedback;
}

function checkRequirements(resolved: ResolvedOption, event: DecideEvent): void {
  const { option, mapping } = resolved;
  const needsInstructions =
    mapping !== 'direct' && mapping !== 'reject'
      ? true
      : option.outcome === 'steered' || option.requires.includes('instructions');
  if (needsInstructions && blank(event.instructions)) {
    throw invalidField('instructions', `option "${event.option}" needs non-empty instructions for the agent`);
  }
  if (option.requires.includes('feedback') && blank(feedbackOf(resolved, event))) {
    throw invalidField('feedback', `option "${option.id}" needs non-empty feedback`);
  }
  if (option.requires.includes('reason') && blank(event.reason)) {
    throw invalidField('reason', `option "${option.id}" needs a non-empty reason`);
  }
  const wantsAnswer = option.requires.includes('answer');
  if (wantsAnswer && blank(event.answer)) {
    throw invalidField('answer', `option "${option.id}" needs a non-empty answer`);
  }
  if (!wantsAnswer && event.answer !== undefined) {
    throw invalidField(
      'answer',
      `only a question gate's answer option takes an answer (got option "${option.id}")`,
    );
  }
}

function checkEdit(gate: Gate, { option, mapping }: ResolvedOption, event: DecideEvent): void {
  if (event.edit === undefined) return;
  if (option.id !== 'approve' || mapping !== 'direct' || event.option !== 'approve') {
    throw invalidField('editedArgs', `editedArgs goes only with option approve (got "${event.option}")`);
  }
  if (!gate.editable) {
    throw invalidField('editedArgs', `gate ${gate.id} cannot be approved with edited arguments`);
  }
}

function checkPayload(gate: Gate, event: DecideEvent): void {
  const bound = gate.payloadHash;
  if (event.payloadHash === undefined || bound === null || event.payloadHash === bound) return;
  throw new GatehouseError(
    'PAYLOAD_MISMATCH',
    `payloadHash does not match the action gate ${gate.id} was opened for; reload the gate and decide again`,
    { field: 'payloadHash', gateId: gate.id },
  );
}

function joinText(...parts: (string | undefined)[]): string | undefined {
  const present = parts.filter((part): part is string => !blank(part));
  return present.length === 0 ? undefined : present.join('\n\n');
}

function buildDecision(gate: Gate, resolved: ResolvedOption, event: DecideEvent, now: number): Decision {
  const { option, mapping } = resolved;
  const feedback = feedbackOf(resolved, event);
  const instructions = mapping === 'direct' || mapping === 'steer_as_option' ? event.instructions : undefined;
  const { edit } = event;
  const payloadHash = edit?.payloadHash ?? event.payloadHash ?? gate.payloadHash ?? undefined;
  const original = edit === undefined ? undefined : (gate.payloadHash ?? undefined);
  return {
    option: option.id,
    outcome: option.outcome ?? 'resolved',
    decidedBy: event.by,
    affectedArtifacts: checkArtifactPaths(event.affectedArtifacts ?? []),
    decidedAt: now,
    ...(event.reason === undefined ? {} : { reason: event.reason }),
    ...(feedback === undefined ? {} : { feedback }),
    ...(instructions === undefined ? {} : { instructions }),
    ...(event.signature === undefined ? {} : { signature: event.signature }),
    ...(payloadHash === undefined ? {} : { payloadHash }),
    ...(edit === undefined ? {} : { editedArgs: edit.args }),
    ...(original === undefined ? {} : { originalPayloadHash: original }),
    ...(event.answer === undefined ? {} : { answer: event.answer }),
    ...(event.delegateTo === undefined ? {} : { delegateTo: event.delegateTo }),
    ...(event.newLimit === undefined ? {} : { newLimit: event.newLimit }),
    ...(event.whitelist === undefined ? {} : { whitelist: event.whitelist }),
  };
}

function vote(gate: Gate, decision: Decision): GateTransition {
  if (gate.approvals.some((existing) => existing.by === decision.decidedBy)) {
    throw new GatehouseError(
      'DUPLICATE_APPROVER',
      `${decision.decidedBy} already approved gate ${gate.id}; ${gate.requiredApprovals} different people must approve`,
      { gateId: gate.id, by: decision.decidedBy, approvals: gate.approvals.length },
    );
  }
  const ballot: ApprovalVote = { by: decision.decidedBy, at: decision.decidedAt };
  if (decision.reason !== undefined) ballot.reason = decision.reason;
  const approvals = [...gate.approvals, ballot];
  if (approvals.length < gate.requiredApprovals) {
    return { gate: { ...gate, approvals }, changed: true, ended: false };
  }
  return end({ ...gate, approvals }, decision);
}

function decide(gate: Gate, event: DecideEvent, now: number): GateTransition {
  if (isTerminal(gate.status)) {
    throw new GatehouseError('GATE_ALREADY_DECIDED', `gate ${gate.id} was already decided: ${gate.status}`, {
      gateId: gate.id,
      winner: gate.decision,
    });
  }
  if (pastDeadline(gate, now)) throw expiredError(gate);
  if (blank(event.by)) throw invalidField('by', 'the deciding person is required');
  const resolved = resolveDecideOption(gate, event.option, event.confirmApproval === true);
  if (!resolved.option.ends) return unchanged(gate);
  checkRequirements(resolved, event);
  checkEdit(gate, resolved, event);
  checkDecisionTargets(gate, resolved.option, event);
  checkPayload(gate, event);
  const decision = buildDecision(gate, resolved, event, now);
  return decision.outcome === 'approved' ? vote(gate, decision) : end(gate, decision);
}

function timeoutDecision(outcome: 'approved' | 'expired', now: number): Decision {
  return { option: 'timeout', outcome, decidedBy: TIMEOUT_ACTOR, affectedArtifacts: [], decidedAt: now };
}

function escalate(gate: Gate, event: ExpireEvent, now: number): GateTransition {
  const next = gate.escalationChain.find((role) => roleRank(role) > roleRank(gate.minRole));
  if (next === undefined) return end(gate, timeoutDecision('expired', now));
  const step = event.escalationStepMs ?? DEFAULT_ESCALATION_STEP_MS;
  if (!Number.isInteger(step) || step < 1 || step > MAX_GATE_TIMEOUT_MS) {
    throw invalidField('escalationStepMs', `must be between 1ms and 30d in whole milliseconds (got ${step})`);
  }
  // Escalation re-assigns the gate to the higher role, so earlier named assignees no longer restrict it.
  return {
    gate: { ...gate, minRole: next, assignees: [], timeoutAt: now + step },
    changed: true,
    ended: false,
  };
}

function expire(gate: Gate, event: ExpireEvent, now: number): GateTransition {
  // A late or early sweep is harmless: only a pending gate past its deadline times out.
  if (isTerminal(gate.status) || !pastDeadline(gate, now)) return unchanged(gate);
  switch (gate.timeoutAction) {
    case 'deny':
      return end(gate, timeoutDecision('expired', now));
    case 'proceed':
      // A gate tightened after it opened (more approvals, a higher role, extended) never proceeds by itself.
      return end(gate, timeoutDecision(gateMayProceedOnTimeout(gate) ? 'approved' : 'expired', now));
    case 'escalate':
      return escalate(gate, event, now);
    default:
      return assertNever(gate.timeoutAction);
  }
}

/** True when nothing about the gate as it stands now forbids approving it by its deadline. */
export function gateMayProceedOnTimeout(gate: Gate): boolean {
  if (gate.threshold === 'mandatory' || gate.signatureRequired || gate.requiredApprovals > 1) return false;
  if (gate.risk === 'high' || gate.risk === 'critical') return false;
  if (roleRank(gate.minRole) > roleRank('developer')) return false;
  if (NEVER_PROCEED_TYPES.has(gate.type)) return false;
  if (gate.action !== null && isAlwaysGated(gate.action)) return false;
  return gate.options.some((option) => option.outcome === 'approved');
}

function cancel(gate: Gate, event: CancelEvent, now: number): GateTransition {
  if (isTerminal(gate.status)) throw notPending(gate, 'cancel');
  if (blank(event.by)) throw invalidField('by', 'the cancelling person or service is required');
  const decision: Decision = {
    option: 'cancel',
    outcome: 'cancelled',
    decidedBy: event.by,
    affectedArtifacts: [],
    decidedAt: now,
    ...(blank(event.reason) ? {} : { reason: event.reason }),
  };
  return end(gate, decision);
}

function extend(gate: Gate, event: ExtendEvent, now: number): GateTransition {
  if (isTerminal(gate.status)) throw notPending(gate, 'extend');
  // Extending after the deadline would let a late approval through.
  if (pastDeadline(gate, now)) throw expiredError(gate);
  const { until } = event;
  if (!Number.isInteger(until) || until <= now || until > now + MAX_GATE_TIMEOUT_MS) {
    throw invalidField(
      'until',
      `must be a time later than now (${toIso(now)}) and at most 30d ahead (got ${until})`,
    );
  }
  return { gate: { ...gate, timeoutAt: until }, changed: true, ended: false };
}

function assign(gate: Gate, event: AssignEvent): GateTransition {
  if (isTerminal(gate.status)) throw notPending(gate, 'assign');
  const assignees = checkAssignees(event.assignees, gate.requiredApprovals);
  return { gate: { ...gate, assignees }, changed: true, ended: false };
}

/**
 * Applies one event to a gate and returns the new gate; the input gate is never modified.
 * @example
 * const { gate: decided, ended } = applyGateEvent(gate, { type: 'decide', option: 'approve', by: 'ana' }, clock.now());
 */
export function applyGateEvent(gate: Gate, event: GateEvent, now: number): GateTransition {
  switch (event.type) {
    case 'decide':
      return decide(gate, event, now);
    case 'expire':
      return expire(gate, event, now);
    case 'cancel':
      return cancel(gate, event, now);
    case 'extend':
      return extend(gate, event, now);
    case 'assign':
      return assign(gate, event);
    default:
      return assertNever(event);
  }
}

/** Who is trying to decide a gate: a person with a role, or an agent (which never may). */
export type DecisionPrincipal =
  | { kind: 'user'; id: string; role: Role }
  | { kind: 'agent'; id: string; role?: Role | undefined };

/** Throws unless `principal` may decide `gate`: agents never decide; role, assignees and separation of duties apply. */
export function authorizeDecision(gate: Gate, principal: DecisionPrincipal): void {
  const details = { gateId: gate.id, principal: principal.id };
  if (principal.kind !== 'user') {
    throw new GatehouseError('FORBIDDEN', 'agents cannot decide gates; a person must', details);
  }
  if (!hasRole(principal.role, gate.minRole)) {
    throw new GatehouseError(
      'ROLE_TOO_LOW',
      `gate ${gate.id} needs the role ${gate.minRole} or higher (you are ${principal.role})`,
      { ...details, required: gate.minRole, actual: principal.role },
    );
  }
  if (gate.assignees.length > 0 && !gate.assignees.includes(principal.id)) {
    throw new GatehouseError('NOT_ASSIGNEE', `gate ${gate.id} is assigned to ${gate.assignees.join(', ')}`, {
      ...details,
      assignees: gate.assignees,
    });
  }
  // The server records a person who opens a gate as `user:<id>`; older gates name the bare id.
  const requester = gate.requestedBy === principal.id || gate.requestedBy === `user:${principal.id}`;
  if (gate.separationOfDuties && requester) {
    throw new GatehouseError(
      'SELF_APPROVAL',
      `gate ${gate.id} needs separation of duties: its requester cannot decide it; ask someone else`,
      details,
    );
  }
}

/** True when a decision on this gate must carry a signature (the caller checks it and raises SIGNATURE_REQUIRED). */
export function needsSignature(gate: Gate): boolean {
  return gate.signatureRequired;
}

export type { GateOutcome };

/** The SDK-facing outcome of a gate, or null while it is pending. */
export function gateOutcomeFor(gate: Gate): GateOutcome | null {
  return gateOutcome(gate.status, gate.decision?.option);
}
