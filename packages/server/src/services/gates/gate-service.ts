import { type Gate, type GateCatalog, GatehouseError } from 'gatehouse-hitl-core';
import type { GateFilter } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import type { Principal } from '../../http/principal.js';
import { commit } from '../commit.js';
import type { PolicyService } from '../policy/policy-service.js';
import type { GateService, InterventionNotice } from '../types.js';
import { assertCanRead, type GateDeps, loadGate, withoutVersion } from './gate-common.js';
import { consumedAt, consumeGate } from './gate-consume.js';
import { decideGate, decideGates } from './gate-decide.js';
import { createGateEndedHandlers } from './gate-ended.js';
import { autoProceedDelayOf } from './gate-evaluate.js';
import { briefingOf, withHeadlines } from './gate-headline.js';
import { assignGate, extendGate, steerFailed, withdrawGate } from './gate-manage.js';
import { openDirectGate } from './gate-opening.js';
import { requestGate } from './gate-request.js';
import { resetRecovery } from './gate-triggers.js';
import { createGateWaiters, waitForGate } from './gate-wait.js';
import { separatedOwnerOf } from './owner-separation.js';

/** What the gate service is built from; `interventions` comes from the run service when there is one. */
export interface GateServiceOptions {
  catalog: GateCatalog;
  policies: PolicyService;
  interventions?: (runId: string) => Promise<InterventionNotice[]>;
}

async function readGate(ctx: AppContext, principal: Principal, gateId: string): Promise<Gate> {
  const gate = withoutVersion(await ctx.store.read((tx) => loadGate(tx, gateId)));
  assertCanRead(principal, gate);
  return gate;
}

function listFilter(principal: Principal, filter: GateFilter): GateFilter {
  if (principal.kind !== 'agent') return filter;
  if (filter.agentId !== undefined && filter.agentId !== principal.id) {
    throw new GatehouseError('FORBIDDEN', 'agents can only list their own gates', { field: 'agentId' });
  }
  return { ...filter, agentId: principal.id };
}

/** Creates the gate service: requests, decisions, waits and the rest of a gate's life. */
export function createGateService(ctx: AppContext, options: GateServiceOptions): GateService {
  const waiters = createGateWaiters(ctx.bus);
  const deps: GateDeps = {
    ctx,
    catalog: options.catalog,
    policies: options.policies,
    waiters,
    autoProceedDelayMs: autoProceedDelayOf(ctx.config.confidenceEnv),
    agentProfiles: new Map(),
    ended: createGateEndedHandlers(),
    answered: [],
    interventions: async (runId) => {
      if (options.interventions === undefined) return [];
      try {
        return await options.interventions(runId);
      } catch (error) {
        ctx.log.warn({ err: error, runId }, 'interventions could not be read');
        return [];
      }
    },
  };
  // A retry on a recovery escalation gives the run's agent a fresh count.
  deps.ended.onGateDecided(async (tools, { gate }) => {
    if (gate.type === 'recovery_escalation' && gate.decision?.option === 'retry')
      await resetRecovery(tools.tx, gate.runId);
  });
  return {
    request: (principal, input, requestOptions) => requestGate(deps, principal, input, requestOptions),
    open: (input, openOptions) => commit(ctx, (tools) => openDirectGate(deps, tools, input, openOptions)),
    openInCommit: (tools, input, openOptions) => openDirectGate(deps, tools, input, openOptions),
    get: (principal, gateId) => readGate(ctx, principal, gateId),

    async view(principal, gateId) {
      const gate = await readGate(ctx, principal, gateId);
      const used = gate.status === 'approved' ? await consumedAt(deps, gateId) : null;
      const separatedOwner = await ctx.store.read((tx) => separatedOwnerOf(deps, tx, gate));
      const { briefing, headline } = await briefingOf(ctx, deps.catalog, gate);
      return { gate, headline, briefing, consumedAt: used, separatedOwner };
    },

    async list(principal, filter) {
      const page = await ctx.store.read((tx) => tx.listGates(listFilter(principal, filter)));
      return { ...page, items: await withHeadlines(ctx, deps.catalog, page.items) };
    },
    decide: (principal, gateId, input) => decideGate(deps, principal, gateId, input),
    decideBatch: (principal, input) => decideGates(deps, principal, input),
    wait: (principal, gateId, timeoutMs, signal) =>
      waitForGate(deps, { principal, gateId, timeoutMs, signal }),
    extend: (principal, gateId, seconds) => extendGate(deps, principal, gateId, seconds),
    assign: (principal, gateId, assignees) => assignGate(deps, principal, gateId, assignees),
    consume: (principal, gateId, payloadHash) => consumeGate(deps, principal, gateId, payloadHash),
    steerFailed: (principal, gateId, reason) => steerFailed(deps, principal, gateId, reason),
    withdraw: (principal, gateId, reason) => withdrawGate(deps, principal, gateId, reason),
    onGateDecided: (handler) => deps.ended.onGateDecided(handler),
    onRequestAnswered: (listener) => deps.answered.push(listener),
    waiting: () => waiters.count(),
    close: () => waiters.close(),
  };
}
