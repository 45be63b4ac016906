import type {
  ApprovalMode,
  AutonomyLevel,
  GateDocument as Gate,
  GateOutcome,
  InterventionNotice,
  PhaseType,
  ReviewDocument,
  RiskLevel,
  RunDocument as Run,
  TimeoutAction,
} from 'gatehouse-hitl-protocol';

/** How an answer ended: the standard outcomes or a gate-specific option id (`retry`, `abort`, …). */
export type Outcome = GateOutcome;

/** What an agent asks to do: exactly one of `tool` or `operation`, with its arguments. */
export interface ActionSpec {
  tool?: string | undefined;
  operation?: string | undefined;
  args?: Record<string, unknown> | undefined;
}

/** One request for permission; everything but the action is optional. */
export interface RequestOptions extends ActionSpec {
  runId?: string | undefined;
  /** Shown to the reviewer; free-form; the server shows hidden characters in it as ⟨U+…⟩ markers. */
  context?: Record<string, unknown> | undefined;
  risk?: RiskLevel | undefined;
  /** Seconds until the gate's timeout action fires; the server's default when absent. */
  timeoutSeconds?: number | undefined;
  timeoutAction?: TimeoutAction | undefined;
  /** A policy event such as `planning_complete` or `destructive_action`. */
  event?: string | undefined;
  /** Ask for a specific gate type instead of the policy's choice. */
  gateType?: string | undefined;
  /** The agent's confidence, 0–1. */
  confidence?: number | undefined;
  /** Workspace-relative paths the action touches. */
  artifacts?: string[] | undefined;
  title?: string | undefined;
  /**
   * Sent as `Idempotency-Key`; give a stable one to survive a restart of the agent itself.
   * @default a random UUID per call
   */
  idempotencyKey?: string | undefined;
  /** Stops waiting (the gate stays open on the server). */
  signal?: AbortSignal | undefined;
  /** Called once when a person must answer, before waiting starts (e.g. to say which gate to answer). */
  onGate?: ((gateId: string, gate: Gate | null) => void) | undefined;
  /**
   * The W3C trace context of the agent's current span, so the gate joins the agent's trace on a
   * server with tracing on (docs/tracing.md). @default the client's `traceContext`, if any
   */
  traceContext?: TraceContext | undefined;
}

/** W3C trace context headers, as an OpenTelemetry propagator writes them. */
export interface TraceContext {
  /** e.g. `00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01` */
  traceparent: string;
  tracestate?: string | undefined;
}

/** The answer to a request, a checkpoint or an escalation. */
export interface GateResult {
  outcome: Outcome;
  /** The option a person (or the timeout) chose; null when the policy answered. */
  option: string | null;
  reason: string | null;
  /** Steer instructions: the agent's next instruction, delivered verbatim. */
  instructions: string | null;
  feedback: string | null;
  affectedArtifacts: string[];
  gateId: string | null;
  ruleId: string | null;
  /** `policy` when the policy answered at once, `system:timeout` for a timeout, else a person. */
  decidedBy: string | null;
  /** SHA-256 (hex) of the action this answer covers; null for gates without an action. */
  payloadHash: string | null;
  /** True when the approval is used once: `withApproval` consumes it before running. */
  oneOff: boolean;
  /**
   * The arguments to run: a person's edited arguments when `edited`, else the agent's own; null
   * for gates without an action.
   */
  args: Record<string, unknown> | null;
  /** A person changed the arguments before approving; run `args`, not what was proposed. */
  edited: boolean;
  /** A question gate's answer; null otherwise. */
  answer: string | null;
  /** The agent a person handed the task to (option `delegate`); null otherwise. */
  delegateTo: string | null;
  /** The limit a person set when expanding a constraint (option `expand_constraint`); null otherwise. */
  newLimit: number | null;
  interventions: InterventionNotice[];
  gate: Gate | null;
}

/** How hard the client retries through network errors and server restarts. */
export interface RetryOptions {
  /** @default 100 */
  initialDelayMs?: number;
  /** @default 5000 */
  maxDelayMs?: number;
  /**
   * Give up after this long without an answer (the caller's AbortSignal always stops sooner).
   * @default Infinity
   */
  maxElapsedMs?: number;
  /** Called before each retry, e.g. to log that the server is unreachable. */
  onRetry?: (info: { attempt: number; delayMs: number; error: unknown }) => void;
}

/** Options of `new Gatehouse(...)`. */
export interface GatehouseOptions {
  /** The server, e.g. `http://127.0.0.1:7300`. */
  url: string;
  /** An agent token (`gha_…`); a person's session token works for the reading calls. */
  token: string;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  retry?: RetryOptions;
  /**
   * How long each long-poll asks the server to hold a wait.
   * @default 30000
   */
  waitTimeoutMs?: number;
  /**
   * Asked on each `request` for the trace context of the agent's current span; with OpenTelemetry:
   * `() => { const carrier = {}; propagation.inject(context.active(), carrier); return carrier; }`.
   * Returning undefined (or a carrier without `traceparent`) sends none.
   */
  traceContext?: (() => Partial<TraceContext> | undefined) | undefined;
}

/** Options of `createRun`. */
export interface CreateRunOptions {
  autonomy?: AutonomyLevel;
  approvalMode?: ApprovalMode;
  /** 0–1: steps below it wait in `confidence_threshold` mode. */
  confidenceThreshold?: number;
  title?: string;
  signal?: AbortSignal | undefined;
}

/** A phase boundary report. */
export interface CheckpointOptions {
  runId: string;
  phase: number;
  type: PhaseType;
  jobComplete?: boolean;
  /** The phase branch pushed to the run's workspace (`ws.push()`): opens its review against main. */
  branch?: string | undefined;
  /** What the phase did and learned; the squash merge's message on main. */
  retrospective?: string | undefined;
  /**
   * Wait for the phase review when the run freezes.
   * @default true
   */
  wait?: boolean;
  signal?: AbortSignal | undefined;
  /** Called once when a person must answer, before waiting starts (e.g. to say which gate to answer). */
  onGate?: ((gateId: string, gate: Gate | null) => void) | undefined;
}

export interface CheckpointResult {
  freeze: boolean;
  gateId: string | null;
  gate: Gate | null;
  /** The phase review's answer (with feedback) once decided; null when not frozen or not waited. */
  outcome: GateResult | null;
  /** The branch's review when `branch` was given (`status: 'merged'` when no approval was needed). */
  review: ReviewDocument | null;
}

/** Options of `completeRun`. */
export interface CompleteRunOptions {
  /**
   * Wait for the final review when the autonomy level asks for one.
   * @default true
   */
  wait?: boolean;
  signal?: AbortSignal | undefined;
  /** Called once when a person must answer, before waiting starts (e.g. to say which gate to answer). */
  onGate?: ((gateId: string, gate: Gate | null) => void) | undefined;
}

export interface CompleteRunResult {
  run: Run;
  /** The final review gate, when there is one. */
  gate: Gate | null;
  /** The final review's answer once decided; null without a review or when not waited. */
  outcome: GateResult | null;
}

/** A self-assessment: exactly one of `score` (0–100) or `confidence` (0–1). */
export interface ConfidenceOptions {
  runId?: string;
  score?: number;
  confidence?: number;
  reasons: string[];
  taskId?: string;
  /**
   * Wait for the escalation gate's answer when the report escalates.
   * @default false
   */
  wait?: boolean;
  signal?: AbortSignal | undefined;
  /** Called once when a person must answer, before waiting starts (e.g. to say which gate to answer). */
  onGate?: ((gateId: string, gate: Gate | null) => void) | undefined;
}

export interface ConfidenceResult {
  id: string | null;
  escalated: boolean;
  gateId: string | null;
  /** The server's band (`high`, `medium`, `low`, `zero`) when it reports one. */
  band: string | null;
  /** True in the zero band: stop the subtask and wait for the gate's decision. */
  abortSubtask: boolean;
  /** The escalation's answer when `wait` was set and the report escalated. */
  outcome: GateResult | null;
}

export type { Gate, InterventionNotice, Run };
