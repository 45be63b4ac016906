import {
  applyGateEvent,
  authorizeDecision,
  batchEligibility,
  decisionWhitelistScope,
  type Gate,
  GatehouseError,
  type GateTransition,
  gateOutcomeFor,
  isGatehouseError,
  isTerminal,
  needsSignature,
  redactForAudit,
  rememberOf,
  TIMEOUT_ACTOR,
  toIso,
} from 'gatehouse-hitl-core';
import type { RememberedRule } from 'gatehouse-hitl-store';
import type { Principal } from '../../http/principal.js';
import { type CommitTools, commit } from '../commit.js';
import { assertWritten, retryLostUpdates } from '../lost-update.js';
import { insertRememberedRule, type NewRule } from '../policy/rule-service.js';
import {
  type ApprovedMerge,
  afterReviewDecision,
  mergeBeforeApproval,
  mergesFirst,
} from '../reviews/review-decision.js';
import type { BatchDecideItem, DecideInput, DecideResult } from '../types.js';
import { announce, cleanText, type GateDeps, loadGate, withoutVersion } from './gate-common.js';
import { assertDelegateExists } from './gate-delegate.js';
import { type CheckedEdit, checkEdit } from './gate-edit.js';
import { appendRunInstruction } from './gate-run.js';
import { assertOwnerMayDecide } from './owner-separation.js';
import { decisionTextOf, type VerifiedSignature, verifyDecisionSignature } from './signatures.js';

type User = Extract<Principal, { kind: 'user' }>;

/** The person deciding; agents never decide. */
export function decider(principal: Principal): User {
  if (principal.kind === 'anonymous') throw new GatehouseError('UNAUTHENTICATED', 'log in to decide gates');
  if (principal.kind !== 'user')
    throw new GatehouseError('FORBIDDEN', 'agents cannot decide gates; a person must');
  return principal;
}

/** GATE_EXPIRED for a gate its deadline ended, else GATE_ALREADY_DECIDED naming the winner. */
export function endedError(gate: Gate): GatehouseError {
  const decision = gate.decision;
  const winner =
    decision === null
      ? null
      : { decidedBy: decision.decidedBy, option: decision.option, decidedAt: decision.decidedAt };
  if (decision?.decidedBy === TIMEOUT_ACTOR) {
    const at = gate.timeoutAt === null ? 'its deadline' : toIso(decision.decidedAt);
    return new GatehouseError('GATE_EXPIRED', `gate ${gate.id} timed out at ${at}`, {
      gateId: gate.id,
      status: gate.status,
      winner,
    });
  }
  const by = winner === null ? '' : ` by ${winner.decidedBy} (${winner.option})`;
  return new GatehouseError('GATE_ALREADY_DECIDED', `gate ${gate.id} was already decided${by}`, {
    gateId: gate.id,
    status: gate.status,
    winner,
  });
}

function transitionOf(
  gate: Gate,
  user: User,
  input: DecideInput,
  edit: CheckedEdit | null,
  now: number,
): GateTransition {
  return applyGateEvent(
    gate,
    {
      type: 'decide',
      option: input.option,
      by: user.id,
      reason: cleanText(input.reason),
      feedback: cleanText(input.feedback),
      instructions: cleanText(input.instructions),
      affectedArtifacts: input.affectedArtifacts,
      confirmApproval: input.confirmApproval,
      answer: cleanText(input.answer),
      delegateTo: input.delegateTo,
      newLimit: input.newLimit,
      whitelist: decisionWhitelistScope(gate, input.option, input.whitelist),
      edit: edit ?? undefined,
      // Only a signature that was checked is kept with the decision.
      signature: needsSignature(gate) ? input.signature?.trim() : undefined,
    },
    now,
  );
}

/** Both versions of an edited action's arguments, redacted for the audit trail as the opened gate's were. */
function editedArgsOf(deps: GateDeps, gate: Gate, editedArgs: Record<string, unknown> | undefined) {
  const roots = { originalArgs: 'args', editedArgs: 'args' } as const;
  const record = { originalArgs: gate.action?.args ?? {}, editedArgs: editedArgs ?? {} };
  return redactForAudit(record, deps.policies.current().policy.redact, { roots });
}

async function recordEnd(
  deps: GateDeps,
  tools: CommitTools,
  next: Gate,
  extra: {
    user: User;
    option: string;
    signature: VerifiedSignature | null;
    rule: NewRule | null;
    channel: NonNullable<DecideInput['channel']>;
    merge: ApprovedMerge | null;
    whitelist: DecideInput['whitelist'];
  },
): Promise<RememberedRule | null> {
  const decision = next.decision;
  if (decision === null) return null;
  const edited = decision.editedArgs !== undefined;
  await tools.audit({
    kind: 'gate.decided',
    actor: `user:${extra.user.id}`,
    subject: next.id,
    data: {
      option: extra.option,
      recordedOption: decision.option,
      outcome: decision.outcome,
      reason: decision.reason ?? null,
      feedback: decision.feedback ?? null,
      instructions: decision.instructions ?? null,
      affectedArtifacts: decision.affectedArtifacts,
      payloadHash: next.payloadHash,
      approvedPayloadHash: decision.payloadHash ?? next.payloadHash,
      edited,
      ...(edited ? editedArgsOf(deps, next, decision.editedArgs) : {}),
      ...(decision.answer === undefined ? {} : { answer: decision.answer }),
      ...(decision.delegateTo === undefined ? {} : { delegateTo: decision.delegateTo }),
      ...(decision.newLimit === undefined ? {} : { newLimit: decision.newLimit }),
      approvals: next.approvals.map((vote) => vote.by),
      signature: extra.signature?.signature ?? null,
      publicKey: extra.signature?.publicKey ?? null,
      signedText:
        extra.signature === null
          ? null
          : decisionTextOf(
              next,
              extra.option,
              decision,
              decision.payloadHash ?? next.payloadHash,
              extra.signature.canonical,
            ),
      ...(decision.whitelist === undefined ? {} : { whitelist: decision.whitelist }),
      channel: extra.channel,
    },
  });
  await announce(tools, 'gate.decided', next, {
    outcome: gateOutcomeFor(next),
    option: decision.option,
    decidedBy: decision.decidedBy,
    edited,
    ...(decision.instructions === undefined ? {} : { instructions: decision.instructions }),
  });
  if (decision.instructions !== undefined)
    await appendRunInstruction(tools.tx, next.runId, decision.instructions);
  const rule = extra.rule === null ? null : await insertRememberedRule(tools, deps.ctx.ids, extra.rule);
  await deps.ended.gateDecided(tools, { gate: next, merge: extra.merge, whitelist: extra.whitelist });
  return rule;
}

/** BATCH_NOT_ALLOWED naming the reason when one click for many gates may not end this one. */
function checkBatchEligible(deps: GateDeps, gate: Gate): void {
  const batchable = deps.catalog.has(gate.type) ? deps.catalog.spec(gate.type).batchable : undefined;
  const verdict = batchEligibility(gate, batchable);
  if (verdict.eligible) return;
  throw new GatehouseError(
    'BATCH_NOT_ALLOWED',
    `gate ${gate.id} cannot be decided in a batch: ${verdict.reason}; open it and decide it on its own`,
    { gateId: gate.id, rule: verdict.rule, reason: verdict.reason },
  );
}

interface DecideRequest {
  user: User;
  gateId: string;
  input: DecideInput;
  /** One click for many gates: only batch-eligible gates may be ended. */
  batch: boolean;
  /** A phase review's squash merge, made before this decision's transaction; undefined until looked for. */
  merge?: ApprovedMerge | null;
}

/** Thrown (rolling the decision back) when the decision approves a phase review not yet merged. */
class MergeFirst extends Error {}

async function decideInCommit(
  deps: GateDeps,
  tools: CommitTools,
  request: DecideRequest,
): Promise<DecideResult> {
  const { tx } = tools;
  const { user, gateId, input } = request;
  const stored = await loadGate(tx, gateId);
  const gate = withoutVersion(stored);
  if (isTerminal(gate.status)) throw endedError(gate);
  if (request.batch) checkBatchEligible(deps, gate);
  authorizeDecision(gate, { kind: 'user', id: user.id, role: user.role });
  if (request.merge === undefined && !request.batch && mergesFirst(gate, input.option))
    throw new MergeFirst();
  await assertOwnerMayDecide(deps, tx, { gate, userId: user.id, option: input.option });
  const edit = await checkEdit(deps, tx, gate, input);
  const transition = transitionOf(gate, user, input, edit, tx.now);
  if (!transition.changed) return { gate, decision: null, rule: null };
  await assertDelegateExists(tx, input.delegateTo);
  const rule = rememberOf(gate, user, input);
  const signature = needsSignature(gate)
    ? verifyDecisionSignature({
        gate,
        option: input.option,
        words: {
          reason: input.reason,
          feedback: input.feedback,
          instructions: input.instructions,
          whitelist: decisionWhitelistScope(gate, input.option, input.whitelist),
        },
        signature: input.signature,
        payloadHash: edit?.payloadHash ?? gate.payloadHash,
        keys: await tx.listSigningKeys(user.id),
      })
    : null;
  const next = transition.gate;
  assertWritten(await tx.updateGate(next, stored.version, { beforeDeadline: true }), {
    kind: 'gate',
    id: gateId,
  });
  if (signature !== null) await tx.touchSigningKey({ id: signature.keyId, at: tx.now });
  if (!transition.ended) {
    const data = { option: input.option, approvals: next.approvals.length, required: next.requiredApprovals };
    await tools.audit({ kind: 'gate.vote', actor: `user:${user.id}`, subject: gate.id, data });
    await announce(tools, 'gate.vote', next, data);
    return { gate: next, decision: null, rule: null };
  }
  const channel = input.channel ?? 'api';
  const created = await recordEnd(deps, tools, next, {
    user,
    option: input.option,
    signature,
    rule,
    channel,
    merge: request.merge ?? null,
    whitelist: input.whitelist,
  });
  return { gate: next, decision: next.decision, rule: created };
}

/**
 * Decides a gate: the first valid decision wins by a conditional update that also checks the
 * deadline; a lost race is retried (N-of-M votes) until the gate has ended.
 */
export async function decideGate(
  deps: GateDeps,
  principal: Principal,
  gateId: string,
  input: DecideInput,
): Promise<DecideResult> {
  const user = decider(principal);
  const request: DecideRequest = { user, gateId, input, batch: false };
  try {
    return await decideWithRetry(deps, request);
  } catch (error) {
    if (!(error instanceof MergeFirst)) throw error;
  }
  // Git is no part of the transaction: merge, then decide again with the merge in hand.
  const rules = deps.policies.current().policy.reviews;
  const merge = await mergeBeforeApproval(deps.ctx, user, gateId, input.option, rules);
  const result = await decideWithRetry(deps, { ...request, merge });
  await afterReviewDecision(deps.ctx, merge);
  return result;
}

// A decision writes only through its transaction (the merge is made before it), so a batch that
// rolls back for another unit's error may run it again: batched decisions need no savepoint each.
function decideWithRetry(deps: GateDeps, request: DecideRequest): Promise<DecideResult> {
  return retryLostUpdates(() =>
    commit(deps.ctx, (tools) => decideInCommit(deps, tools, request), { replayable: true }),
  );
}

/**
 * Decides up to 100 gates with one option, each in its own commit; refusals are reported per gate,
 * including BATCH_NOT_ALLOWED for every gate a batch may not end, whichever client sent it.
 */
export async function decideGates(
  deps: GateDeps,
  principal: Principal,
  input: { gateIds: string[]; option: string; reason?: string | undefined },
): Promise<BatchDecideItem[]> {
  const user = decider(principal);
  const gateIds = [...new Set(input.gateIds)];
  const decision = { option: input.option, reason: input.reason };
  return Promise.all(
    gateIds.map(async (gateId): Promise<BatchDecideItem> => {
      try {
        const { gate } = await decideWithRetry(deps, { user, gateId, input: decision, batch: true });
        return { gateId, ok: true, status: gate.status };
      } catch (error) {
        if (!isGatehouseError(error)) {
          deps.ctx.log.error({ err: error, gateId }, 'batch decision failed');
          return { gateId, ok: false, error: { code: 'INTERNAL', message: 'internal error', details: {} } };
        }
        return {
          gateId,
          ok: false,
          error: { code: error.code, message: error.message, details: { ...error.details } },
        };
      }
    }),
  );
}
