import {
  applyGateEvent,
  GatehouseError,
  type Intervention,
  type InterventionKind,
  type RunStatus,
  revealText,
} from 'gatehouse-hitl-core';
import type { GatesRepo } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { actorOf, type Principal } from '../../http/principal.js';
import { type CommitTools, commit } from '../commit.js';
import { announce, withoutVersion } from '../gates/gate-common.js';
import { invalidInput } from '../gates/gate-input.js';
import { assertWritten, retryLostUpdates } from '../lost-update.js';
import type { InterventionNotice } from '../types.js';
import {
  assertCanReadRun,
  changeRun,
  loadRun,
  type RunDocument,
  type RunView,
  runView,
  settledStatusOf,
} from './run-records.js';

/** A person's intervention on a run. */
export interface InterventionInput {
  kind: InterventionKind;
  instruction?: string | undefined;
}

/** The run after an intervention, and the intervention as stored. */
export interface InterventionResult {
  run: RunView;
  intervention: Intervention;
}

const PAST: Record<InterventionKind, string> = {
  pause: 'paused',
  resume: 'resumed',
  stop: 'stopped',
  steer: 'steered',
};

/** How many unseen notices a run keeps for its agent; older ones stay readable through the API. */
const MAX_UNSEEN = 100;
const PAGE = 500;

function invalidTransition(run: RunDocument, kind: InterventionKind, allowed: string): GatehouseError {
  return new GatehouseError(
    'INVALID_TRANSITION',
    `cannot ${kind} run ${run.id}: it is ${run.status} (only a ${allowed} run can be ${PAST[kind]})`,
    { runId: run.id, status: run.status, kind },
  );
}

/** The run's status after an intervention, or INVALID_TRANSITION naming its current status. */
async function statusAfter(tx: GatesRepo, run: RunDocument, kind: InterventionKind): Promise<RunStatus> {
  const live = run.status === 'running' || run.status === 'waiting';
  switch (kind) {
    case 'pause':
      if (!live) throw invalidTransition(run, kind, 'running or waiting');
      return 'paused';
    case 'resume':
      if (run.status !== 'paused') throw invalidTransition(run, kind, 'paused');
      return settledStatusOf(tx, { ...run, status: 'running' });
    case 'stop':
    case 'steer':
      if (!live && run.status !== 'paused') throw invalidTransition(run, kind, 'running, waiting or paused');
      return kind === 'stop' ? 'stopped' : run.status;
  }
}

/** The instruction as stored: hidden characters shown as markers, and required for a steer. */
function instructionOf(input: InterventionInput): string | null {
  const text = input.instruction === undefined ? '' : revealText(input.instruction, { multiline: true });
  if (input.kind === 'steer' && text.trim() === '') {
    throw invalidInput('instruction', 'a steer needs a non-empty instruction for the agent');
  }
  return text.trim() === '' ? null : text;
}

/** Cancels every pending gate of a run in the caller's commit; the run's requests then fail closed. */
export async function cancelPendingGates(
  tools: CommitTools,
  runId: string,
  by: string,
  reason: string,
): Promise<string[]> {
  const { tx } = tools;
  const cancelled: string[] = [];
  for (;;) {
    const page = await tx.listGates({ runId, status: 'pending', limit: PAGE });
    for (const gate of page.items) {
      const stored = await tx.getGate(gate.id);
      if (stored === null || stored.status !== 'pending') continue;
      const next = applyGateEvent(withoutVersion(stored), { type: 'cancel', by, reason }, tx.now).gate;
      assertWritten(await tx.updateGate(next, stored.version), { kind: 'gate', id: gate.id });
      await tools.audit({ kind: 'gate.cancelled', actor: by, subject: gate.id, data: { runId, reason } });
      await announce(tools, 'gate.cancelled', next, { outcome: 'cancelled', reason, decidedBy: by });
      cancelled.push(gate.id);
    }
    if (page.items.length < PAGE) return cancelled;
  }
}

/** Announces a run's status change to the inbox and the run's stream. */
export async function announceRunStatus(
  tools: CommitTools,
  run: RunDocument,
  previous: RunStatus | null,
  reason: string,
): Promise<void> {
  if (run.status === previous) return;
  await tools.emit({
    type: 'run.status',
    runId: run.id,
    agentId: run.agentId,
    gateId: null,
    data: { status: run.status, previous, reason },
  });
}

async function interveneInCommit(
  tools: CommitTools,
  intervention: Intervention,
): Promise<InterventionResult> {
  const { tx } = tools;
  const { kind, instruction, runId, by } = intervention;
  let previous: RunStatus = 'running';
  const run = await changeRun(tx, runId, async (current) => {
    previous = current.status;
    const notice: InterventionNotice = { kind, instruction, at: tx.now };
    return {
      ...current,
      status: await statusAfter(tx, current, kind),
      instructions:
        kind === 'steer' && instruction !== null
          ? [...current.instructions, instruction]
          : current.instructions,
      unseen: [...(current.unseen ?? []), notice].slice(-MAX_UNSEEN),
    };
  });
  await tx.insertIntervention(intervention);
  const cancelled = kind === 'stop' ? await cancelPendingGates(tools, runId, by, 'the run was stopped') : [];
  await tools.audit({
    kind: `run.${PAST[kind]}`,
    actor: by,
    subject: runId,
    data: { interventionId: intervention.id, instruction, from: previous, to: run.status, cancelled },
  });
  await tools.emit({
    type: 'intervention',
    runId,
    agentId: run.agentId,
    gateId: null,
    data: { kind, instruction, at: tx.now, by, interventionId: intervention.id },
  });
  await announceRunStatus(tools, run, previous, kind);
  return { run: runView(run), intervention };
}

/** Pause, resume, stop or steer a run: one commit with its audit event and stream event. People only. */
export async function intervene(
  ctx: AppContext,
  principal: Principal,
  runId: string,
  input: InterventionInput,
): Promise<InterventionResult> {
  if (principal.kind !== 'user') {
    throw new GatehouseError('FORBIDDEN', 'agents cannot intervene on runs; a person must');
  }
  const instruction = instructionOf(input);
  // A gate the run's end cancels may be decided meanwhile: the whole intervention is tried again.
  return retryLostUpdates(() =>
    commit(ctx, async (tools) => {
      const intervention: Intervention = {
        id: ctx.ids.next('intv'),
        runId,
        kind: input.kind,
        instruction,
        by: actorOf(principal),
        createdAt: tools.tx.now,
      };
      return interveneInCommit(tools, intervention);
    }),
  );
}

/** Interventions of a run after `after` (epoch ms), oldest first, for its agent or any person. */
export async function listRunInterventions(
  ctx: AppContext,
  principal: Principal,
  runId: string,
  after?: number,
): Promise<Intervention[]> {
  return ctx.store.read(async (tx) => {
    assertCanReadRun(principal, await loadRun(tx, runId));
    return tx.listInterventions(runId, after);
  });
}

/** Interventions of a run after `after` (epoch ms) as an agent receives them. */
export async function pendingInterventions(
  ctx: AppContext,
  runId: string,
  after?: number,
): Promise<InterventionNotice[]> {
  const items = await ctx.store.read((tx) => tx.listInterventions(runId, after));
  return items.map((item) => ({ kind: item.kind, instruction: item.instruction, at: item.createdAt }));
}

/**
 * Hands the agent the interventions it has not been given yet, once: the notices are cleared by a
 * conditional update, so of two concurrent answers only one carries them.
 */
export async function takeUnseenInterventions(ctx: AppContext, runId: string): Promise<InterventionNotice[]> {
  const stored: RunDocument | null = await ctx.store.read((tx) => tx.getRun(runId));
  if (stored === null || (stored.unseen ?? []).length === 0) return [];
  return commit(ctx, async ({ tx }) => {
    let taken: InterventionNotice[] = [];
    await changeRun(tx, runId, (run) => {
      taken = run.unseen ?? [];
      return taken.length === 0 ? null : { ...run, unseen: [] };
    });
    return taken;
  });
}
