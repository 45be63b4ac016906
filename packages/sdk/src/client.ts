import type {
  GateDocument as Gate,
  GateViewResponse,
  GateWaitResponse,
  RunDocument as Run,
} from 'gatehouse-hitl-protocol';
import { lightRoutes } from 'gatehouse-hitl-protocol/rules';
import {
  type AnalysisAnswer,
  type AnalysisDecision,
  type AnalyzeAndWaitOptions,
  type AnalyzeOptions,
  decideAnalysis,
  requestAnalysis,
} from './analysis.js';
import { type AskOptions, answerOf, questionRequest } from './ask.js';
import { type Backoff, DEFAULT_BACKOFF, sleep } from './backoff.js';
import { GatehouseApiError } from './errors.js';
import { followRunEvents, type RunEvent, type RunEventOptions } from './events.js';
import { Transport } from './http.js';
import { payloadHash } from './payload.js';
import {
  assertApprovalCovers,
  assertPayloadMatches,
  payloadMismatch,
  resultFromGate,
  resultFromPolicy,
} from './result.js';
import { checkpointRun, completeRun, createRun, defined, getRun } from './runs.js';
import type {
  ActionSpec,
  CheckpointOptions,
  CheckpointResult,
  CompleteRunOptions,
  CompleteRunResult,
  ConfidenceOptions,
  ConfidenceResult,
  CreateRunOptions,
  GatehouseOptions,
  GateResult,
  RequestOptions,
  TraceContext,
} from './types.js';
import { type ApprovalOutcome, type ApprovalSpec, wrapWithApproval } from './with-approval.js';
import { Workspace, type WorkspaceOptions } from './workspace.js';
import { Journal } from './workspace-journal.js';

const DEFAULT_WAIT_MS = 30_000;
/** How much longer than the server's hold time one long-poll may take before it counts as lost. */
const WAIT_MARGIN_MS = 15_000;

/** The `traceparent` and `tracestate` headers of a trace context; none without a traceparent. */
function traceHeaders(context: Partial<TraceContext> | undefined): Record<string, string> {
  if (typeof context?.traceparent !== 'string') return {};
  const { traceparent, tracestate } = context;
  return typeof tracestate === 'string' ? { traceparent, tracestate } : { traceparent };
}

/** A 409 RUN_NOT_ACTIVE for a paused run: wait for resume and ask again. */
const isPausedRun = (error: GatehouseApiError) =>
  error.code === 'RUN_NOT_ACTIVE' && error.details.status === 'paused';

/**
 * The agent's client: asks before acting, waits for a person through reconnects and server
 * restarts, and follows the run's interventions. Uses `fetch` only.
 *
 * @example
 * const gate = new Gatehouse({ url: 'http://127.0.0.1:7300', token: process.env.GATEHOUSE_TOKEN! });
 * const answer = await gate.request({ tool: 'shell_execute', args: { command: 'npm test' } });
 * if (answer.outcome === 'approved') runTests();
 */
export class Gatehouse {
  readonly #transport: Transport;
  readonly #backoff: Backoff;
  readonly #waitMs: number;
  readonly #url: string;
  readonly #token: string;
  readonly #traceContext: GatehouseOptions['traceContext'];

  constructor(options: GatehouseOptions) {
    this.#url = options.url;
    this.#token = options.token;
    this.#traceContext = options.traceContext;
    const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#backoff = {
      initialDelayMs: options.retry?.initialDelayMs ?? DEFAULT_BACKOFF.initialDelayMs,
      maxDelayMs: options.retry?.maxDelayMs ?? DEFAULT_BACKOFF.maxDelayMs,
      maxElapsedMs: options.retry?.maxElapsedMs ?? DEFAULT_BACKOFF.maxElapsedMs,
    };
    this.#waitMs = options.waitTimeoutMs ?? DEFAULT_WAIT_MS;
    this.#transport = new Transport({
      url: options.url,
      token: options.token,
      fetch: fetchImpl,
      backoff: this.#backoff,
      onRetry: options.retry?.onRetry,
    });
  }

  /**
   * Asks whether an action may go ahead and waits for the answer; denied, steered and timed out
   * are values, errors are for refusals of the request itself (stopped run, bad input).
   *
   * @example
   * const { outcome, instructions } = await gate.request({ tool: 'delete_file', args: { path: 'build/' }, runId });
   */
  async request(options: RequestOptions): Promise<GateResult> {
    const { signal, idempotencyKey, onGate, traceContext, ...fields } = options;
    const action: ActionSpec = { tool: fields.tool, operation: fields.operation, args: fields.args ?? {} };
    const hash = await payloadHash(action);
    const response = await this.#transport.route(
      lightRoutes.gates.request,
      {
        body: defined({ ...fields, args: action.args }),
        headers: {
          'idempotency-key': idempotencyKey ?? globalThis.crypto.randomUUID(),
          ...traceHeaders(traceContext ?? this.#traceContext?.()),
        },
      },
      { signal, retry: 'always', retryWhen: isPausedRun },
    );
    // The server must have hashed exactly what was sent, or no approval could ever bind to it.
    if (typeof response.payloadHash === 'string' && response.payloadHash !== hash) {
      throw payloadMismatch(response.gate?.id ?? null, response.payloadHash, hash);
    }
    if (response.outcome !== 'gated') return resultFromPolicy(response, hash, action.args ?? {});
    const gate = response.gate;
    if (gate === null) throw new GatehouseApiError('INTERNAL', 'the server gated the request without a gate');
    onGate?.(gate.id, gate);
    const ended = await this.#waitEnded(gate, signal);
    const result = resultFromGate(ended.gate, {
      outcome: ended.outcome,
      ruleId: response.ruleId,
      interventions: response.interventions ?? [],
    });
    await assertApprovalCovers(result, action, hash);
    return result;
  }

  /**
   * Waits until a gate ends (long-poll, through reconnects and restarts) and returns its answer.
   *
   * @example
   * const report = await gate.reportConfidence({ runId, score: 72, reasons: ['flaky test'] });
   * if (report.gateId) console.log((await gate.waitForGate(report.gateId)).outcome);
   */
  async waitForGate(gateId: string, options: { signal?: AbortSignal | undefined } = {}): Promise<GateResult> {
    const ended = await this.#waitEnded({ id: gateId, status: 'pending' }, options.signal);
    return resultFromGate(ended.gate, { outcome: ended.outcome });
  }

  /** Reads one gate with its briefing. */
  getGate(gateId: string, options: { signal?: AbortSignal | undefined } = {}): Promise<GateViewResponse> {
    return this.#transport.route(
      lightRoutes.gates.get,
      { params: { id: gateId } },
      { signal: options.signal, retry: 'always' },
    );
  }

  /**
   * Marks a one-off approval used for exactly this action, so it cannot be used again; refused
   * with PAYLOAD_MISMATCH for another action and APPROVAL_USED the second time.
   */
  async consume(
    result: GateResult,
    action: ActionSpec,
    options: { signal?: AbortSignal | undefined } = {},
  ): Promise<void> {
    const hash = await payloadHash(action);
    assertPayloadMatches(result, hash);
    if (!result.oneOff || result.gateId === null) return;
    await this.#transport.route(
      lightRoutes.gateActions.consume,
      { params: { id: result.gateId }, body: { payloadHash: hash } },
      { signal: options.signal, retry: 'safe' },
    );
  }

  /**
   * Withdraws the agent's own pending request when it no longer needs the answer (its caller gave up,
   * the task changed): the gate is cancelled, so nobody decides a call that will never run. A gate
   * that already ended is refused with GATE_NOT_PENDING, and a review of the agent's work (intent,
   * phase review, confidence, change analysis) with INVALID_TRANSITION: only a person ends those.
   *
   * @example
   * await gate.withdraw(gateId, { reason: 'the user cancelled the task' });
   */
  async withdraw(
    gateId: string,
    options: { reason?: string; signal?: AbortSignal | undefined } = {},
  ): Promise<Gate> {
    const response = await this.#transport.route(
      lightRoutes.gateActions.withdraw,
      { params: { id: gateId }, body: defined({ reason: options.reason }) },
      { signal: options.signal, retry: 'safe' },
    );
    return response.gate;
  }

  /**
   * Reports the agent's confidence; below the threshold the server escalates to a gate, whose
   * answer this waits for when `wait` is set.
   */
  async reportConfidence(options: ConfidenceOptions): Promise<ConfidenceResult> {
    const { signal, wait, onGate, ...fields } = options;
    const response = await this.#transport.route(
      lightRoutes.confidence.report,
      { body: defined(fields) },
      { signal, retry: 'safe' },
    );
    const gateId = response.gateId ?? null;
    if (response.escalated && gateId !== null) onGate?.(gateId, null);
    const outcome =
      wait === true && response.escalated && gateId !== null
        ? await this.waitForGate(gateId, { signal })
        : null;
    return {
      id: response.id ?? null,
      escalated: response.escalated,
      gateId,
      band: response.band ?? null,
      abortSubtask: response.abortSubtask ?? false,
      outcome,
    };
  }

  /**
   * Analyses a change (a unified diff, or files before and after): tests removed or skipped,
   * assertions weakened, exports removed, laziness patterns. With `runId`, the server opens the
   * gates the findings call for (destructive action, recovery escalation, false positive) and
   * returns them pending; `analyzeAndWait` waits for them.
   *
   * @example
   * const { findings, verdict } = await gate.analyze({ diff: execSync('git diff').toString() });
   * if (verdict.destructive.triggered) console.log(findings.map((f) => `${f.file}:${f.line} ${f.pattern}`));
   */
  analyze(options: AnalyzeOptions): Promise<AnalysisAnswer> {
    return requestAnalysis(this.#transport, options);
  }

  /**
   * Analyses a change in a run and, when gates were opened, waits for a person to decide each of
   * them; act on the change only when `proceed` is true.
   *
   * @example
   * const { proceed, blocking } = await gate.analyzeAndWait({ runId, files: [{ path, before, after }] });
   * if (proceed) writeFileSync(path, after);
   * else console.log(blocking.map((answer) => answer.reason ?? answer.outcome));
   */
  async analyzeAndWait(options: AnalyzeAndWaitOptions): Promise<AnalysisDecision> {
    const analysis = await requestAnalysis(this.#transport, options);
    return decideAnalysis(analysis, options, (gateId, signal) => this.waitForGate(gateId, { signal }));
  }

  /**
   * Reports a phase boundary; when the autonomy level freezes the run, waits for the phase
   * review and returns its answer (approve, or request changes with feedback). With `branch`, the
   * pushed phase branch is reviewed as a pull request against main.
   *
   * @example
   * const { outcome, review } = await gate.checkpoint({ runId, phase: 1, type: 'strategic', branch, retrospective });
   * if (outcome?.outcome === 'request_changes') console.log((await ws.reviewFeedback())?.comments);
   */
  checkpoint(options: CheckpointOptions): Promise<CheckpointResult> {
    return checkpointRun(this.#transport, options, (gateId, signal) => this.waitForGate(gateId, { signal }));
  }

  /**
   * The run's git workspace: clone it, push phase branches, read and answer their reviews. Needs
   * Node.js and `git` on PATH.
   *
   * @example
   * const ws = await gate.workspace(runId).clone('/tmp/work');
   * await ws.startPhaseBranch({ phase: 1, type: 'strategic' });
   */
  workspace(runId: string, options: WorkspaceOptions = {}): Workspace {
    if (typeof runId !== 'string' || runId === '') throw new TypeError('runId must be the run’s id');
    return new Workspace({
      transport: this.#transport,
      url: this.#url,
      token: this.#token,
      runId,
      author: options.author,
    });
  }

  /**
   * The run's journal (chat, todos, model calls, notes), for the people reviewing its work.
   *
   * @example
   * await gate.journal(runId).append({ kind: 'chat', data: { role: 'assistant', content: 'Plan ready.' } });
   */
  journal(runId: string): Journal {
    if (typeof runId !== 'string' || runId === '') throw new TypeError('runId must be the run’s id');
    return new Journal(this.#transport, runId);
  }

  /** Starts a run of this agent. */
  createRun(options: CreateRunOptions = {}): Promise<Run> {
    return createRun(this.#transport, options);
  }

  /** Reads a run (status `waiting` while one of its gates is pending). */
  getRun(runId: string, options: { signal?: AbortSignal | undefined } = {}): Promise<Run> {
    return getRun(this.#transport, runId, options.signal);
  }

  /**
   * Ends a run; when the autonomy level asks for a final review, waits for it (unless `wait` is
   * false) and returns its answer.
   */
  completeRun(runId: string, options: CompleteRunOptions = {}): Promise<CompleteRunResult> {
    return completeRun(this.#transport, runId, options, (gateId, signal) =>
      this.waitForGate(gateId, { signal }),
    );
  }

  /**
   * The run's interventions (pause, resume, stop, steer) as they happen, from its event stream;
   * reconnects with `Last-Event-ID` until the signal aborts.
   *
   * @example
   * for await (const event of gate.interventions(runId, { signal })) if (event.kind === 'stop') break;
   */
  interventions(runId: string, options: RunEventOptions = {}): AsyncGenerator<RunEvent> {
    return followRunEvents(this.#transport, runId, this.#backoff, options);
  }

  /**
   * Calls `callback` for each intervention on the run until the returned function is called.
   *
   * @example
   * const stop = gate.onIntervention(runId, (event) => { if (event.kind === 'pause') paused = true; });
   */
  onIntervention(
    runId: string,
    callback: (event: RunEvent) => void | Promise<void>,
    options: Omit<RunEventOptions, 'signal'> & { onError?: (error: unknown) => void } = {},
  ): () => void {
    const controller = new AbortController();
    const { onError, ...rest } = options;
    const follow = async () => {
      for await (const event of this.interventions(runId, { ...rest, signal: controller.signal }))
        await callback(event);
    };
    follow().catch((error: unknown) => {
      if (!controller.signal.aborted) onError?.(error);
    });
    return () => controller.abort();
  }

  /**
   * Wraps a tool function so every call asks first and runs only on approval, with exactly the
   * arguments that were approved.
   *
   * @example
   * const safeDelete = gate.withApproval(deleteFile, {
   *   tool: 'delete_file',
   *   args: (path) => ({ path }),
   *   fromArgs: (edited) => [String(edited.path)], // runs a person's edited path
   * });
   * await safeDelete('build/'); // throws ApprovalDenied / ApprovalSteered / ApprovalTimedOut unless approved
   */
  withApproval<A extends unknown[], R>(
    fn: (...args: A) => Promise<R> | R,
    spec: ApprovalSpec<A> & { mode?: 'throw' },
  ): (...args: A) => Promise<R>;
  withApproval<A extends unknown[], R>(
    fn: (...args: A) => Promise<R> | R,
    spec: ApprovalSpec<A> & { mode: 'result' },
  ): (...args: A) => Promise<ApprovalOutcome<R>>;
  withApproval<A extends unknown[], R>(fn: (...args: A) => Promise<R> | R, spec: ApprovalSpec<A>) {
    return wrapWithApproval(this, fn, spec);
  }

  /**
   * Asks a person a question and waits for the answer text; throws ApprovalDenied when they decline,
   * ApprovalTimedOut when nobody answers in time.
   *
   * @example
   * const region = await gate.ask('Which region should the bucket live in?', { runId, timeoutSeconds: 3600 });
   */
  async ask(question: string, options: AskOptions = {}): Promise<string> {
    return answerOf(await this.request(questionRequest(question, options)));
  }

  async #waitEnded(
    gate: Pick<Gate, 'id' | 'status'>,
    signal: AbortSignal | undefined,
  ): Promise<GateWaitResponse> {
    for (;;) {
      const started = Date.now();
      const response = await this.#transport.route(
        lightRoutes.gates.wait,
        { params: { id: gate.id }, query: { timeoutMs: this.#waitMs } },
        { signal, retry: 'always', attemptTimeoutMs: this.#waitMs + WAIT_MARGIN_MS },
      );
      if (response.gate.status !== 'pending') return response;
      // A wait that came back at once without an end (an extension, a partial approval) must not spin.
      if (Date.now() - started < 100) await sleep(100, signal);
    }
  }
}
