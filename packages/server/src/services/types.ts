import type {
  Action,
  Decision,
  Gate,
  GateStatus,
  Intervention,
  RiskLevel,
  Role,
  Run,
  StandingScope,
} from 'gatehouse-hitl-core';
import type { GateFilter, IdempotencyRepo, Page, RememberedRule, RunFilter } from 'gatehouse-hitl-store';
import type { Principal } from '../http/principal.js';
import type { CommitTools } from './commit.js';
import type { GateDecidedHandler } from './gates/gate-ended.js';
import type { ListedGate } from './gates/gate-headline.js';
import type { InterventionInput, InterventionResult } from './runs/interventions.js';
import type { CheckpointInput, CheckpointResult, CompleteResult, ResumeView } from './runs/run-phase.js';
import type { RunView } from './runs/run-records.js';
import type { CreateRunInput } from './runs/run-service.js';

/** What an agent asks for: the policy decides allow / deny / gate. */
export interface GateRequestInput {
  runId?: string | undefined;
  tool?: string | undefined;
  operation?: string | undefined;
  args?: Record<string, unknown> | undefined;
  event?: string | undefined;
  gateType?: string | undefined;
  context?: Record<string, unknown> | undefined;
  artifacts?: string[] | undefined;
  risk?: RiskLevel | undefined;
  confidence?: number | undefined;
  timeoutSeconds?: number | undefined;
  timeoutAction?: 'deny' | 'escalate' | 'proceed' | undefined;
  idempotencyKey?: string | undefined;
  title?: string | undefined;
}

/** An intervention as an agent receives it with its next answer. */
export interface InterventionNotice {
  kind: string;
  instruction: string | null;
  at: number;
}

/** The answer to a request: decided at once, or a gate to wait on. */
export interface GateRequestResult {
  outcome: 'allowed' | 'denied' | 'gated';
  gateId: string | null;
  gate: Gate | null;
  ruleId: string | null;
  reason: string;
  /** SHA-256 of the action (tool or operation and arguments); approvals bind to it. */
  payloadHash: string;
  /** Interventions and steering the agent has not seen yet. */
  interventions: InterventionNotice[];
  /** True when the agent rated this step in the zero confidence band: it stops the subtask and waits. */
  abortSubtask: boolean;
}

/** The scope of the whitelist entry a Whitelist decision creates, as the person chose it. */
export interface WhitelistChoice {
  /** The finding's file, or a glob that matches it; default the finding's file. */
  path?: string | undefined;
  /** `every`: every agent; default only the gate's agent. */
  agents?: 'this' | 'every' | undefined;
  /** Days until it needs review again; default (and at most) 90. */
  expiresInDays?: number | undefined;
}

export interface DecideInput {
  option: string;
  reason?: string | undefined;
  feedback?: string | undefined;
  instructions?: string | undefined;
  affectedArtifacts?: string[] | undefined;
  signature?: string | undefined;
  /** With option approve on an editable gate: the arguments to run instead of the agent's. */
  editedArgs?: Record<string, unknown> | undefined;
  /** A question gate's answer. */
  answer?: string | undefined;
  /** With option delegate: the id of the agent that takes the task over. */
  delegateTo?: string | undefined;
  /** With option expand_constraint: the limit the task may use from now on. */
  newLimit?: number | undefined;
  /** For approve_always: remember for this run, this agent, or everyone. */
  rememberScope?: 'run' | 'agent' | 'global' | undefined;
  rememberTtlSeconds?: number | undefined;
  /** For approve_always: what later calls of the tool the rule covers; default the first suggested scope. */
  rememberMatch?: StandingScope | undefined;
  /** With option whitelist: the entry's scope as the person chose it; the narrowest without it. */
  whitelist?: WhitelistChoice | undefined;
  /** The person accepts that a steer on a gate that cannot be steered approves it. */
  confirmApproval?: boolean | undefined;
  /** Where the person decided, for the audit trail. @default 'api' (the web app, the CLI, the API) */
  channel?: 'api' | 'slack' | 'email' | undefined;
}

/** What `open` needs besides a request: who opens which type of gate. */
export type GateOpenInput = GateRequestInput & { type: string; agentId: string | null; requestedBy: string };

/** A decision's effect: the gate after it, the decision when it ended the gate, the rule "approve always" created. */
export interface DecideResult {
  gate: Gate;
  decision: Decision | null;
  rule?: RememberedRule | null;
}

/** One gate of a batch decision: decided, or refused with the error a single decision would get. */
export interface BatchDecideItem {
  gateId: string;
  ok: boolean;
  status?: GateStatus;
  error?: { code: string; message: string; details: Record<string, unknown> };
}

/** A gate with its Summary of Action. */
export interface GateView {
  gate: Gate;
  /** The line the gate's page leads with, as lists show it. */
  headline: string;
  briefing: unknown;
  /** When a one-off approval was used; null while unused. */
  consumedAt: number | null;
  /** The person who owns the agent that asked, when separation of duties keeps them from approving. */
  separatedOwner: string | null;
}

/** How a request may answer with a gate it opened before instead of a new one. */
export interface GateRequestOptions {
  /**
   * Asked only when the policy gates the request, of the agent's open and approved-but-unused gates for
   * the same action (in the request's run): the first it accepts answers the request. A client that
   * retries a call under a new id (Claude Code does) finds its earlier gate without a read per allowed call.
   */
  sameRequestAs?: (gate: Gate) => boolean;
  /**
   * Asked first, in the request's transaction and only when the policy gates it: the id of the gate an
   * earlier answer to the same call left open. That gate answers even when it ended since, so a
   * person's late rejection or steer reaches the client instead of a new gate.
   */
  rememberedGate?: (tx: IdempotencyRepo) => Promise<string | null>;
  /** The trace context (JSON) a gate this request opens keeps, so its decision ends its span in that trace. */
  traceContext?: string | null;
}

/** Gates: opened by agents (through the policy) or by the server itself, decided by people. */
export interface GateService {
  request(
    principal: Principal,
    input: GateRequestInput,
    options?: GateRequestOptions,
  ): Promise<GateRequestResult>;
  /** Opens a gate without asking the policy (phase reviews, confidence escalations). */
  open(input: GateOpenInput, options?: { minRole?: Role }): Promise<Gate>;
  /** The same inside the caller's own commit, so the gate opens together with the caller's change. */
  openInCommit(tools: CommitTools, input: GateOpenInput, options?: { minRole?: Role }): Promise<Gate>;
  get(principal: Principal, gateId: string): Promise<Gate>;
  view(principal: Principal, gateId: string): Promise<GateView>;
  /** Agents see only their own gates. */
  list(principal: Principal, filter: GateFilter): Promise<Page<ListedGate>>;
  decide(principal: Principal, gateId: string, input: DecideInput): Promise<DecideResult>;
  /** Each gate in its own commit. */
  decideBatch(
    principal: Principal,
    input: { gateIds: string[]; option: string; reason?: string | undefined },
  ): Promise<BatchDecideItem[]>;
  wait(principal: Principal, gateId: string, timeoutMs: number, signal?: AbortSignal): Promise<Gate>;
  /** Snooze: moves a pending gate's deadline `seconds` from now. */
  extend(principal: Principal, gateId: string, seconds: number): Promise<Gate>;
  assign(principal: Principal, gateId: string, assignees: string[]): Promise<Gate>;
  /** Marks a one-off approval used for exactly this action. */
  consume(
    principal: Principal,
    gateId: string,
    payloadHash: string,
  ): Promise<{ gate: Gate; consumedAt: number | null; oneOff: boolean }>;
  /** The agent could not apply a steer: a new gate opens with the original context and the steer. */
  steerFailed(
    principal: Principal,
    gateId: string,
    reason: string,
  ): Promise<{ gate: Gate; previousGateId: string }>;
  /** The agent that asked no longer needs the decision: its pending gate is cancelled. */
  withdraw(principal: Principal, gateId: string, reason: string | undefined): Promise<Gate>;
  /** Registers what a feature does, inside the decision's commit, each time a person decides a gate; handlers run in registration order. */
  onGateDecided(handler: GateDecidedHandler): void;
  /** Hears, after its commit, of each request this node answered at once (allowed or denied), replays aside. */
  onRequestAnswered(listener: RequestAnsweredListener): void;
  /** Long-polls waiting on this node right now. */
  waiting(): number;
  close(): void;
}

/** What hears of a request answered at once, by its outcome. */
export type RequestAnsweredListener = (outcome: 'allowed' | 'denied') => void;

/** A run with the resume step of its last decided phase review. */
export interface RunDetail {
  run: RunView;
  resume: ResumeView | null;
}

/** Runs: created by agents (or people for them), reported on by their agent, steered by people. */
export interface RunService {
  create(principal: Principal, input: CreateRunInput): Promise<RunView>;
  get(principal: Principal, runId: string): Promise<Run>;
  detail(principal: Principal, runId: string): Promise<RunDetail>;
  /** Agents see only their own runs. */
  list(principal: Principal, filter: RunFilter): Promise<Page<RunView>>;
  checkpoint(principal: Principal, runId: string, input: CheckpointInput): Promise<CheckpointResult>;
  complete(principal: Principal, runId: string): Promise<CompleteResult>;
  /** Pause, resume, stop or steer; people (developer+) only. */
  intervene(principal: Principal, runId: string, input: InterventionInput): Promise<InterventionResult>;
  interventions(principal: Principal, runId: string, after?: number): Promise<Intervention[]>;
  /**
   * Keeps `waiting` right outside a gate commit. The gate service itself updates the run's status
   * inside its own commits (gate-run.ts `refreshRunStatus`), so a gate and its run never disagree.
   */
  refreshStatus(runId: string): Promise<void>;
  /** Interventions of the run its agent has not been handed yet; returned with the agent's next gate request. */
  unseenInterventions(runId: string): Promise<InterventionNotice[]>;
  /** Interventions of the run after `after` (epoch ms). */
  pendingInterventions(runId: string, after?: number): Promise<InterventionNotice[]>;
}

export type { Action };
