import {
  applyGateEvent,
  type Gate,
  GatehouseError,
  hasRole,
  isTerminal,
  openGate,
  toIso,
} from 'gatehouse-hitl-core';
import type { Principal } from '../../http/principal.js';
import { type CommitTools, commit } from '../commit.js';
import { assertWritten, retryLostUpdates } from '../lost-update.js';
import {
  announce,
  assertOwnGate,
  cleanText,
  type GateDeps,
  loadGate,
  type VersionedGate,
  withoutVersion,
} from './gate-common.js';
import { decider } from './gate-decide.js';
import { invalidInput } from './gate-input.js';
import { insertOpenedGate } from './gate-opening.js';
import { refreshRunStatus } from './gate-run.js';

const REOPENED_SCOPE = 'gate-steer-failed';

type Change = (tools: CommitTools, stored: VersionedGate) => Promise<Gate>;

/** Runs one conditional change of a gate, retrying when another commit changed it first. */
function changeGate(deps: GateDeps, gateId: string, change: Change): Promise<Gate> {
  return retryLostUpdates(() =>
    commit(deps.ctx, async (tools) => change(tools, await loadGate(tools.tx, gateId))),
  );
}

async function write(tools: CommitTools, next: Gate, stored: VersionedGate, beforeDeadline: boolean) {
  const written = await tools.tx.updateGate(next, stored.version, { beforeDeadline });
  assertWritten(written, { kind: 'gate', id: next.id });
}

/** A snooze never ends a gate sooner: the deadline only moves later, and a gate without one keeps waiting. */
function checkNotSooner(gate: Gate, seconds: number, now: number): void {
  if (gate.timeoutAt === null) {
    throw invalidInput(
      'seconds',
      `gate ${gate.id} has no deadline and waits until someone decides; there is nothing to extend`,
    );
  }
  if (now + seconds * 1000 < gate.timeoutAt) {
    const least = Math.ceil((gate.timeoutAt - now) / 1000);
    throw invalidInput(
      'seconds',
      `the deadline of gate ${gate.id} (${toIso(gate.timeoutAt)}) only moves later; use at least ${least} (got ${seconds})`,
    );
  }
}

/** Snooze or extend: a pending gate's deadline moves to `seconds` from now, never earlier than it was (at most 30 days). */
export function extendGate(
  deps: GateDeps,
  principal: Principal,
  gateId: string,
  seconds: number,
): Promise<Gate> {
  const user = decider(principal);
  return changeGate(deps, gateId, async (tools, stored) => {
    const gate = withoutVersion(stored);
    if (!isTerminal(gate.status) && !hasRole(user.role, gate.minRole)) {
      throw new GatehouseError('ROLE_TOO_LOW', `gate ${gate.id} needs the role ${gate.minRole} or higher`, {
        required: gate.minRole,
        actual: user.role,
      });
    }
    const until = tools.tx.now + seconds * 1000;
    const { gate: next } = applyGateEvent(gate, { type: 'extend', until }, tools.tx.now);
    checkNotSooner(gate, seconds, tools.tx.now);
    await write(tools, next, stored, true);
    const data = { from: gate.timeoutAt, to: until, seconds };
    await tools.audit({ kind: 'gate.extended', actor: `user:${user.id}`, subject: gate.id, data });
    await announce(tools, 'gate.extended', next, { timeoutAt: until });
    return next;
  });
}

async function checkAssignees(tools: CommitTools, gate: Gate, assignees: readonly string[]): Promise<void> {
  for (const [index, id] of assignees.entries()) {
    const person = await tools.tx.getUser(id);
    if (person === null || person.disabled)
      throw invalidInput(`assignees[${index}]`, `no active person ${id}`);
    if (!hasRole(person.role, gate.minRole)) {
      throw invalidInput(
        `assignees[${index}]`,
        `${id} is ${person.role}; gate ${gate.id} needs ${gate.minRole}`,
      );
    }
  }
}

function roleTooLowToAssign(role: string): GatehouseError {
  return new GatehouseError(
    'ROLE_TOO_LOW',
    `assigning a gate needs the role tech_lead or higher, or being one of its assignees (you are ${role})`,
    { required: 'tech_lead', actual: role },
  );
}

/** Assigns a pending gate to people: tech leads and admins, or a current assignee delegating. */
export async function assignGate(
  deps: GateDeps,
  principal: Principal,
  gateId: string,
  assignees: string[],
): Promise<Gate> {
  const user = decider(principal);
  const lead = hasRole(user.role, 'tech_lead');
  if (!lead) {
    const existing = await deps.ctx.store.read((tx) => tx.getGate(gateId));
    if (existing === null || !existing.assignees.includes(user.id)) throw roleTooLowToAssign(user.role);
  }
  return changeGate(deps, gateId, async (tools, stored) => {
    const gate = withoutVersion(stored);
    if (!lead && !gate.assignees.includes(user.id)) throw roleTooLowToAssign(user.role);
    const { gate: next } = applyGateEvent(gate, { type: 'assign', assignees }, tools.tx.now);
    await checkAssignees(tools, gate, next.assignees);
    await write(tools, next, stored, false);
    const data = { assignees: next.assignees, previous: gate.assignees };
    await tools.audit({ kind: 'gate.assigned', actor: `user:${user.id}`, subject: gate.id, data });
    await announce(tools, 'gate.assigned', next, { assignees: next.assignees });
    return next;
  });
}

const WITHDRAWN = 'the agent withdrew its request';

/**
 * The agent that asked no longer needs the decision (its caller gave up or went away): its pending
 * gate is cancelled, so nobody decides a call that will never run. Only ever ends the agent's own
 * request to act or ask (a type whose spec says `withdrawable`: every other type reviews what the
 * agent did or plans, or holds its run, and only a person ends it); a gate that already ended is
 * GATE_NOT_PENDING.
 */
export function withdrawGate(
  deps: GateDeps,
  principal: Principal,
  gateId: string,
  reason: string | undefined,
): Promise<Gate> {
  return changeGate(deps, gateId, async (tools, stored) => {
    const gate = withoutVersion(stored);
    const agentId = assertOwnGate(principal, gate);
    const withdrawable = deps.catalog.has(gate.type) && deps.catalog.spec(gate.type).withdrawable;
    if (!withdrawable && gate.status === 'pending') {
      throw new GatehouseError(
        'INVALID_TRANSITION',
        `gate ${gate.id} is a ${gate.type} gate: it reviews the agent's work, so only a person ends it`,
        { gateId: gate.id, type: gate.type },
      );
    }
    const by = `agent:${agentId}`;
    const why = cleanText(reason)?.trim() || WITHDRAWN;
    const { gate: next } = applyGateEvent(gate, { type: 'cancel', by, reason: why }, tools.tx.now);
    await write(tools, next, stored, false);
    await refreshRunStatus(tools, gate.runId);
    const data = { runId: gate.runId, reason: why, withdrawn: true };
    await tools.audit({ kind: 'gate.cancelled', actor: by, subject: gate.id, data });
    await announce(tools, 'gate.cancelled', next, { outcome: 'cancelled', reason: why, decidedBy: by });
    return next;
  });
}

function reopen(deps: GateDeps, tools: CommitTools, gate: Gate, reason: string | undefined): Gate {
  const decision = gate.decision;
  return openGate(
    {
      type: gate.type,
      title: gate.title,
      risk: gate.risk,
      threshold: gate.threshold,
      timeoutMs: gate.timeoutAt === null ? null : Math.max(1000, gate.timeoutAt - gate.createdAt),
      timeoutAction: gate.timeoutAction,
      requiredApprovals: gate.requiredApprovals,
      minRole: gate.minRole,
      assignees: gate.assignees,
      separationOfDuties: gate.separationOfDuties,
      signature: gate.signatureRequired,
      escalationChain: gate.escalationChain,
      action: gate.action,
      payloadHash: gate.payloadHash,
      context: {
        ...gate.context,
        failedSteer: {
          previousGateId: gate.id,
          instructions: decision?.instructions ?? null,
          steeredBy: decision?.decidedBy ?? null,
          steeredAt: decision?.decidedAt ?? null,
          reason: reason ?? null,
        },
      },
      artifacts: gate.artifacts,
      confidence: gate.confidence,
      requestedBy: gate.requestedBy,
      runId: gate.runId,
      agentId: gate.agentId,
      policyRuleId: gate.policyRuleId,
    },
    { now: tools.tx.now, id: deps.ctx.ids.next('gate'), catalog: deps.catalog },
  );
}

/** The agent could not apply a steer: the gate opens again (once) with the original context and the steer attached. */
export async function steerFailed(
  deps: GateDeps,
  principal: Principal,
  gateId: string,
  reason: string,
): Promise<{ gate: Gate; previousGateId: string }> {
  return commit(deps.ctx, async (tools) => {
    const { tx } = tools;
    const gate = withoutVersion(await loadGate(tx, gateId));
    const agentId = assertOwnGate(principal, gate);
    if (gate.status !== 'steered') {
      throw new GatehouseError(
        'INVALID_TRANSITION',
        `gate ${gate.id} is ${gate.status}; only a steered gate can be reopened`,
        {
          gateId: gate.id,
          status: gate.status,
        },
      );
    }
    const earlier = await tx.getIdempotency(REOPENED_SCOPE, gateId);
    if (earlier !== null) {
      const reopened = (earlier.response as { gateId: string }).gateId;
      return { gate: withoutVersion(await loadGate(tx, reopened)), previousGateId: gateId };
    }
    const why = cleanText(reason);
    const next = reopen(deps, tools, gate, why);
    if (
      !(await tx.putIdempotency({
        scope: REOPENED_SCOPE,
        key: gateId,
        requestHash: '',
        response: { gateId: next.id },
        createdAt: tx.now,
      }))
    ) {
      throw new GatehouseError(
        'CONFLICT',
        `gate ${gateId} is being reopened by another request; read it again`,
        { gateId },
      );
    }
    const data = {
      reopenedAs: next.id,
      reason: why ?? null,
      instructions: gate.decision?.instructions ?? null,
    };
    await tools.audit({ kind: 'gate.steer_failed', actor: `agent:${agentId}`, subject: gate.id, data });
    await announce(tools, 'gate.steer_failed', gate, { reopenedAs: next.id });
    await insertOpenedGate(deps, tools, next, { reopenedFrom: gate.id, reason: why ?? null });
    return { gate: next, previousGateId: gate.id };
  });
}
