import {
  type Agent,
  type ApprovalMode,
  type AutonomyLevel,
  GatehouseError,
  hasRole,
  resolveRunSettings,
  revealText,
} from 'gatehouse-hitl-core';
import type { Page, RunFilter } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { actorOf, type Principal } from '../../http/principal.js';
import { commit } from '../commit.js';
import { invalidInput } from '../gates/gate-input.js';
import { withReviewFeedback } from '../reviews/review-service.js';
import type { GateService, RunDetail, RunService } from '../types.js';
import {
  announceRunStatus,
  intervene,
  listRunInterventions,
  pendingInterventions,
  takeUnseenInterventions,
} from './interventions.js';
import { checkpointRun, completeRun, lastDecidedReview, resumeOf } from './run-phase.js';
import {
  assertCanReadRun,
  loadRun,
  type RunDocument,
  type RunView,
  runView,
  settleRunStatus,
} from './run-records.js';

/** What creating a run takes; every field has a default. */
export interface CreateRunInput {
  /** Required when a person creates the run for an agent; an agent may only name itself. */
  agentId?: string | undefined;
  autonomy?: AutonomyLevel | undefined;
  approvalMode?: ApprovalMode | undefined;
  /** 0–1. */
  confidenceThreshold?: number | undefined;
  title?: string | undefined;
}

const TITLE_MAX = 200;

/** The agent a new run belongs to: the calling agent itself, or the one a developer+ names. */
function ownerOf(principal: Principal, agentId: string | undefined): string {
  if (principal.kind === 'anonymous')
    throw new GatehouseError('UNAUTHENTICATED', 'log in or send a bearer token');
  if (principal.kind === 'agent') {
    if (agentId !== undefined && agentId !== principal.id) {
      throw new GatehouseError('FORBIDDEN', 'an agent can only start runs of its own', { field: 'agentId' });
    }
    return principal.id;
  }
  if (!hasRole(principal.role, 'developer')) {
    throw new GatehouseError(
      'ROLE_TOO_LOW',
      `starting a run for an agent needs role developer or higher (you are ${principal.role})`,
      {
        required: 'developer',
        role: principal.role,
      },
    );
  }
  if (agentId === undefined) throw invalidInput('agentId', 'name the agent the run is for');
  return agentId;
}

function titleOf(title: string | undefined): string | null {
  if (title === undefined) return null;
  const line = revealText(title, { multiline: true }).replace(/\s+/g, ' ').trim().slice(0, TITLE_MAX);
  return line === '' ? null : line;
}

/** People with role tech_lead may start a run looser than the agent's settings; agents never. */
function mayLoosen(principal: Principal): boolean {
  return principal.kind === 'user' && hasRole(principal.role, 'tech_lead');
}

function newRun(
  ctx: AppContext,
  agent: Agent,
  input: CreateRunInput,
  now: number,
  loosen: boolean,
): RunDocument {
  return {
    id: ctx.ids.next('run'),
    agentId: agent.id,
    status: 'running',
    ...resolveRunSettings(agent, input, loosen),
    phaseNumber: 1,
    phaseType: 'strategic',
    instructions: [],
    title: titleOf(input.title),
    unseen: [],
    createdAt: now,
    updatedAt: now,
  };
}

function createRun(ctx: AppContext, principal: Principal, input: CreateRunInput): Promise<RunView> {
  const agentId = ownerOf(principal, input.agentId);
  return commit(ctx, async (tools) => {
    const agent = await tools.tx.getAgent(agentId);
    if (agent === null)
      throw new GatehouseError('NOT_FOUND', `no agent ${agentId}`, { agentId, field: 'agentId' });
    const run = newRun(ctx, agent, input, tools.tx.now, mayLoosen(principal));
    await tools.tx.insertRun(run);
    await tools.audit({
      kind: 'run.created',
      actor: actorOf(principal),
      subject: run.id,
      data: {
        agentId,
        autonomy: run.autonomy,
        requestedAutonomy: input.autonomy ?? null,
        profile: agent.profile,
        agentAutonomy: agent.autonomy,
        approvalMode: run.approvalMode,
        confidenceThreshold: run.confidenceThreshold,
        title: run.title ?? null,
      },
    });
    await announceRunStatus(tools, run, null, 'created');
    return runView(run);
  });
}

function listFilter(principal: Principal, filter: RunFilter): RunFilter {
  if (principal.kind !== 'agent') return filter;
  if (filter.agentId !== undefined && filter.agentId !== principal.id) {
    throw new GatehouseError('FORBIDDEN', 'agents can only list their own runs', { field: 'agentId' });
  }
  return { ...filter, agentId: principal.id };
}

async function readRun(ctx: AppContext, principal: Principal, runId: string): Promise<RunDetail> {
  const { detail, review } = await ctx.store.read(async (tx) => {
    const { version: _version, ...run } = await loadRun(tx, runId);
    assertCanReadRun(principal, run);
    const decided = await lastDecidedReview(tx, runId);
    return {
      detail: { run: runView(run), resume: decided === null ? null : resumeOf(decided) },
      review: decided,
    };
  });
  return withReviewFeedback(ctx, detail, review);
}

/** Creates the run service: runs, phase checkpoints, completion and interventions. */
export function createRunService(ctx: AppContext, deps: { gates: GateService }): RunService {
  return {
    create: (principal, input) => createRun(ctx, principal, input),
    get: async (principal, runId) => (await readRun(ctx, principal, runId)).run,
    detail: (principal, runId) => readRun(ctx, principal, runId),
    async list(principal, filter): Promise<Page<RunView>> {
      const page = await ctx.store.read((tx) => tx.listRuns(listFilter(principal, filter)));
      return { items: page.items.map(runView), nextCursor: page.nextCursor };
    },
    checkpoint: (principal, runId, input) => checkpointRun(ctx, deps.gates, principal, runId, input),
    complete: (principal, runId) => completeRun(ctx, deps.gates, principal, runId),
    intervene: (principal, runId, input) => intervene(ctx, principal, runId, input),
    interventions: (principal, runId, after) => listRunInterventions(ctx, principal, runId, after),
    refreshStatus: (runId) => commit(ctx, (tools) => settleRunStatus(tools, runId)),
    unseenInterventions: (runId) => takeUnseenInterventions(ctx, runId),
    pendingInterventions: (runId, after) => pendingInterventions(ctx, runId, after),
  };
}
