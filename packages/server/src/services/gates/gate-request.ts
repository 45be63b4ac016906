import {
  abortsSubtask,
  assertRunMayAct,
  canonicalJson,
  confidenceDiagnostics,
  defaultEventOf,
  type Gate,
  type GatedVerdict,
  GatehouseError,
  gateSettingsOf,
  isQuestionRequest,
  openGate,
  type PolicyRequest,
  planVerdict,
  questionVerdict,
  type Run,
  redactForAudit,
  requestActOf,
  type Verdict,
} from 'gatehouse-hitl-core';
import type {
  AgentsRepo,
  GatesRepo,
  IdempotencyRecord,
  IdempotencyRepo,
  ReportsRepo,
  RunsRepo,
} from 'gatehouse-hitl-store';
import { sha256Hex } from '../../auth/secrets.js';
import type { Principal } from '../../http/principal.js';
import { type CommitTools, commit } from '../commit.js';
import { currentHold, type RunDocument } from '../runs/run-records.js';
import type { GateRequestInput, GateRequestOptions, GateRequestResult } from '../types.js';
import { agentProfile } from './agent-profile.js';
import { cleanContext, type GateDeps, gateTitle, withoutVersion } from './gate-common.js';
import { consumedAtIn } from './gate-consume.js';
import { actionOf, evaluateRequest } from './gate-evaluate.js';
import { invalidInput } from './gate-input.js';
import { checkArtifacts, insertOpenedGate, payloadHashOf } from './gate-opening.js';
import { applyTriggerRules } from './gate-triggers.js';

/** The answer as stored under the idempotency key; interventions are added fresh on every reply. */
type StoredAnswer = Omit<GateRequestResult, 'interventions' | 'abortSubtask'>;

/**
 * An answer, `replayed` when it is one stored earlier under the same idempotency key; `unseen` unless
 * the request's own commit found no intervention waiting for the agent in its run.
 */
type Attempt =
  | { kind: 'answer'; answer: StoredAnswer; replayed: boolean; unseen: boolean }
  | { kind: 'paused'; runId: string };

/** Thrown inside the commit when another request stored the same key first; rolls this one back. */
class LostIdempotencyRace extends Error {}

const PAUSED_RECHECK_MS = 1000;

interface Prepared {
  agentId: string;
  /** The person the agent's client acts for, from its verified bearer token; null for an agent token. */
  actor: PolicyRequest['actor'] | null;
  input: GateRequestInput;
  sameRequestAs: GateRequestOptions['sameRequestAs'];
  rememberedGate: GateRequestOptions['rememberedGate'];
  key: string | null;
  /** Hash of the body an idempotency key is bound to; empty without a key. */
  requestHash: string;
  traceContext: string | null;
}

function prepare(principal: Principal, input: GateRequestInput, options: GateRequestOptions): Prepared {
  if (principal.kind !== 'agent') {
    throw new GatehouseError('FORBIDDEN', 'only agent tokens ask for gates; people decide them');
  }
  if ((input.tool === undefined) === (input.operation === undefined)) {
    throw invalidInput('tool', 'give exactly one of tool or operation');
  }
  checkArtifacts(input.artifacts);
  const { idempotencyKey, ...body } = input;
  const key = idempotencyKey ?? null;
  const actor = principal.actor ?? null;
  return {
    agentId: principal.id,
    actor,
    input: body,
    sameRequestAs: options.sameRequestAs,
    rememberedGate: options.rememberedGate,
    key,
    // The same key from the same agent acting for another person is another request.
    requestHash: key === null ? '' : sha256Hex(canonicalJson(actor === null ? body : { body, actor })),
    traceContext: options.traceContext ?? null,
  };
}

function replay(stored: IdempotencyRecord, prepared: Prepared): Attempt {
  if (stored.requestHash !== prepared.requestHash) {
    throw new GatehouseError(
      'IDEMPOTENCY_MISMATCH',
      `Idempotency-Key "${stored.key}" was already used with a different request body; use a new key`,
      { field: 'Idempotency-Key', key: stored.key },
    );
  }
  return { kind: 'answer', answer: stored.response as StoredAnswer, replayed: true, unseen: true };
}

async function activeRun(
  tx: RunsRepo,
  agentId: string,
  input: GateRequestInput,
): Promise<RunDocument | 'paused' | null> {
  const { runId } = input;
  if (runId === undefined) return null;
  const run: RunDocument | null = await tx.getRun(runId);
  if (run === null) throw new GatehouseError('NOT_FOUND', `no run ${runId}`, { runId });
  // Another agent's run is as unknown as a missing one.
  if (run.agentId !== agentId) throw new GatehouseError('NOT_FOUND', `no run ${runId}`, { runId });
  switch (run.status) {
    case 'running':
    case 'waiting':
      assertRunMayAct(runId, currentHold(run), requestActOf(input));
      return run;
    case 'paused':
      return 'paused';
    case 'stopped':
      throw new GatehouseError('RUN_STOPPED', `run ${runId} was stopped; no further requests are allowed`, {
        runId,
        status: run.status,
      });
    default:
      throw new GatehouseError('RUN_NOT_ACTIVE', `run ${runId} is ${run.status}; start a new run`, {
        runId,
        status: run.status,
      });
  }
}

async function policyRequestOf(deps: GateDeps, tx: AgentsRepo, prepared: Prepared, run: Run | null) {
  const { agentId, input } = prepared;
  const request: PolicyRequest = {
    event: input.event ?? defaultEventOf(input),
    args: input.args ?? {},
    agent: { id: agentId, profile: await agentProfile(deps, tx, agentId) },
    ...(prepared.actor === null ? {} : { actor: prepared.actor }),
    ...(input.tool === undefined ? {} : { tool: input.tool }),
    ...(input.operation === undefined ? {} : { operation: input.operation }),
    ...(input.risk === undefined ? {} : { risk: input.risk }),
    ...(input.confidence === undefined ? {} : { confidence: input.confidence }),
    ...(input.gateType === undefined ? {} : { gateType: input.gateType }),
    ...(input.artifacts === undefined ? {} : { impact: { files: input.artifacts } }),
    ...(run === null ? {} : { run: { id: run.id, autonomy: run.autonomy, approvalMode: run.approvalMode } }),
  };
  return request;
}

/**
 * In the zero band the gate presents diagnostics: the aborted subtask and, in a run, its last confidence
 * reports (without a run the briefing names the aborted subtask alone).
 */
async function withZeroBandDiagnostics(
  tx: ReportsRepo,
  input: GateRequestInput,
  context: GateRequestInput['context'],
): Promise<GateRequestInput['context']> {
  const { confidence, runId } = input;
  if (confidence === undefined || !abortsSubtask(confidence)) return context;
  const marked = { ...context, action: 'abort_subtask', band: 'zero' };
  if (runId === undefined) return marked;
  const taskId = typeof context?.taskId === 'string' ? context.taskId : null;
  const earlier = (await tx.listConfidenceReports(runId)).slice(-EARLIER_REPORTS_SHOWN);
  return { ...marked, diagnostics: confidenceDiagnostics({ confidence, taskId, earlier }) };
}

/** How many of the run's last confidence reports a zero-band gate lists. */
const EARLIER_REPORTS_SHOWN = 5;

async function answerAtOnce(
  deps: GateDeps,
  tools: CommitTools,
  prepared: Prepared,
  verdict: Exclude<Verdict, GatedVerdict>,
  payloadHash: string,
): Promise<StoredAnswer> {
  const outcome = verdict.outcome === 'allowed' ? 'allowed' : 'denied';
  const { input, agentId } = prepared;
  // The trail keeps what was decided on, as for a gate, with the policy's secrets hidden.
  const { args } = redactForAudit({ args: input.args ?? {} }, deps.policies.current().policy.redact);
  const data = {
    ruleId: verdict.ruleId,
    reason: verdict.reason,
    via: verdict.via,
    payloadHash,
    tool: input.tool ?? null,
    operation: input.operation ?? null,
    event: input.event ?? null,
    runId: input.runId ?? null,
  };
  const subject = input.runId ?? agentId;
  await tools.audit({
    kind: `request.${outcome}`,
    actor: `agent:${agentId}`,
    subject,
    data: { ...data, args, ...(prepared.actor ? { actingFor: prepared.actor.user } : {}) },
  });
  // Only a run's stream shows an answered request: outside a run no stream would, so none is kept.
  if (input.runId !== undefined)
    await tools.emit({ type: `request.${outcome}`, runId: input.runId, agentId, gateId: null, data });
  return { outcome, gate: null, gateId: null, ruleId: verdict.ruleId, reason: verdict.reason, payloadHash };
}

async function answerWithGate(
  deps: GateDeps,
  tools: CommitTools,
  prepared: Prepared,
  gated: { verdict: GatedVerdict; alwaysGated: boolean },
): Promise<StoredAnswer> {
  const { input, agentId } = prepared;
  const { verdict } = gated;
  const action = actionOf({ tool: input.tool, operation: input.operation, args: input.args ?? {} });
  const payloadHash = payloadHashOf(action);
  const gate = openGate(
    {
      ...gateSettingsOf(verdict, input, {
        definition: deps.catalog.get(verdict.gate.type),
        alwaysGated: gated.alwaysGated,
      }),
      title: gateTitle(input.title, action),
      action,
      payloadHash,
      context: cleanContext(input.context),
      artifacts: input.artifacts ?? [],
      confidence: input.confidence ?? null,
      requestedBy: `agent:${agentId}`,
      runId: input.runId ?? null,
      agentId,
    },
    { now: tools.tx.now, id: deps.ctx.ids.next('gate'), catalog: deps.catalog },
  );
  await insertOpenedGate(
    deps,
    tools,
    gate,
    { reason: verdict.reason, via: verdict.via },
    prepared.traceContext,
  );
  return gatedAnswer(gate, verdict, payloadHash);
}

function gatedAnswer(gate: Gate, verdict: Verdict, payloadHash: string): StoredAnswer {
  return {
    outcome: 'gated',
    gate,
    gateId: gate.id,
    ruleId: verdict.ruleId,
    reason: verdict.reason,
    payloadHash,
  };
}

/** Whether an earlier gate may answer a new request: open, approved and unused, or (`ended`) any end but use. */
async function mayAnswerAgain(tx: IdempotencyRepo, gate: Gate, ended: boolean): Promise<boolean> {
  if (gate.status === 'pending') return true;
  if (gate.status !== 'approved') return ended;
  return gate.decision?.option !== 'approve_always' && (await consumedAtIn(tx, gate.id)) === null;
}

/** The gate an earlier answer to the same call left open (see `rememberedGate`), whatever became of it. */
async function rememberedGate(
  tx: GatesRepo & IdempotencyRepo,
  prepared: Prepared,
  payloadHash: string,
): Promise<Gate | null> {
  const gateId = prepared.rememberedGate === undefined ? null : await prepared.rememberedGate(tx);
  const stored = gateId === null ? null : await tx.getGate(gateId);
  if (stored === null || stored.agentId !== prepared.agentId || stored.payloadHash !== payloadHash)
    return null;
  const gate = withoutVersion(stored);
  return (await mayAnswerAgain(tx, gate, true)) ? gate : null;
}

/** The agent's earlier gate for the same action that `prepared.sameRequestAs` accepts: open, or approved and unused. */
async function earlierGate(
  tx: GatesRepo & IdempotencyRepo,
  prepared: Prepared,
  payloadHash: string,
): Promise<Gate | null> {
  const remembered = await rememberedGate(tx, prepared, payloadHash);
  if (remembered !== null) return remembered;
  const { sameRequestAs, input } = prepared;
  if (sameRequestAs === undefined) return null;
  const page = await tx.listGates({
    agentId: prepared.agentId,
    status: ['pending', 'approved'],
    ...(input.runId === undefined ? {} : { runId: input.runId }),
    limit: 100,
  });
  for (const gate of page.items) {
    if (gate.payloadHash !== payloadHash || !sameRequestAs(gate)) continue;
    if (await mayAnswerAgain(tx, gate, false)) return gate;
  }
  return null;
}

async function attemptInCommit(deps: GateDeps, tools: CommitTools, prepared: Prepared): Promise<Attempt> {
  const { tx } = tools;
  const { agentId, input, key } = prepared;
  if (key !== null) {
    const stored = await tx.getIdempotency(agentId, key);
    if (stored !== null) return replay(stored, prepared);
  }
  const run = await activeRun(tx, agentId, input);
  if (run === 'paused') return { kind: 'paused', runId: input.runId as string };
  const request = await policyRequestOf(deps, tx, prepared, run);
  const evaluation = await evaluateRequest(tx, {
    policy: deps.policies.current(),
    catalog: deps.catalog,
    request,
    run,
    autoProceedDelayMs: deps.autoProceedDelayMs,
  });
  const { alwaysGated } = evaluation;
  const triggered = await applyTriggerRules(tx, run, evaluation.verdict, input.context);
  const context = await withZeroBandDiagnostics(tx, input, triggered.context);
  const asked = isQuestionRequest(input) ? questionVerdict(triggered.verdict) : triggered.verdict;
  const verdict = planVerdict({ autonomy: run?.autonomy ?? null, event: input.event, verdict: asked });
  const payloadHash = payloadHashOf(actionOf(request));
  const earlier = verdict.outcome === 'gated' ? await earlierGate(tx, prepared, payloadHash) : null;
  const answer =
    earlier !== null
      ? { ...gatedAnswer(earlier, verdict, payloadHash), reason: 'asked earlier' }
      : verdict.outcome === 'gated'
        ? await answerWithGate(
            deps,
            tools,
            { ...prepared, input: { ...input, context } },
            { verdict, alwaysGated },
          )
        : await answerAtOnce(deps, tools, prepared, verdict, payloadHash);
  if (key !== null) {
    const record = {
      scope: agentId,
      key,
      requestHash: prepared.requestHash,
      response: answer,
      createdAt: tx.now,
    };
    if (!(await tx.putIdempotency(record))) throw new LostIdempotencyRace();
  }
  return { kind: 'answer', answer, replayed: false, unseen: (run?.unseen ?? []).length > 0 };
}

async function attempt(deps: GateDeps, prepared: Prepared): Promise<Attempt> {
  try {
    // Reads and writes nothing but the transaction, so concurrent requests share a commit without savepoints.
    return await commit(deps.ctx, (tools) => attemptInCommit(deps, tools, prepared), { replayable: true });
  } catch (error) {
    if (!(error instanceof LostIdempotencyRace) || prepared.key === null) throw error;
    const key = prepared.key;
    const stored = await deps.ctx.store.read((tx) => tx.getIdempotency(prepared.agentId, key));
    if (stored === null) throw error;
    return replay(stored, prepared);
  }
}

/** Resolves on the next stream event of the run (a resume, say), after `ms`, or when the service closes. */
function nextRunEvent(deps: GateDeps, runId: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      deps.waiters.closing.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const unsubscribe = deps.ctx.bus.subscribe((event) => {
      if (event.runId === runId) done();
    });
    deps.waiters.closing.addEventListener('abort', done, { once: true });
  });
}

/**
 * Decides an agent's request: allowed, denied or a gate, with its audit event in one commit.
 * A paused run's request is held until it resumes (up to `pausedRunHoldMs`).
 */
export async function requestGate(
  deps: GateDeps,
  principal: Principal,
  input: GateRequestInput,
  options: GateRequestOptions = {},
): Promise<GateRequestResult> {
  const prepared = prepare(principal, input, options);
  const started = Date.now();
  for (;;) {
    const result = await attempt(deps, prepared);
    if (result.kind === 'answer') {
      const { outcome } = result.answer;
      if (!result.replayed && outcome !== 'gated') for (const listener of deps.answered) listener(outcome);
      const runId = prepared.input.runId;
      // One that arrives after the request's commit comes with the agent's next answer (and on its stream).
      const interventions = runId === undefined || !result.unseen ? [] : await deps.interventions(runId);
      const abortSubtask = abortsSubtask(prepared.input.confidence);
      return { ...result.answer, interventions, abortSubtask };
    }
    const remaining = deps.ctx.config.pausedRunHoldMs - (Date.now() - started);
    if (remaining <= 0 || deps.waiters.closing.aborted) {
      throw new GatehouseError('RUN_NOT_ACTIVE', `run ${result.runId} is paused; retry after it resumes`, {
        runId: result.runId,
        status: 'paused',
      });
    }
    await nextRunEvent(deps, result.runId, Math.min(remaining, PAUSED_RECHECK_MS));
  }
}
