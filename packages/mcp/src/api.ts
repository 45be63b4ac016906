import type {
  ClaudeCodePreToolUseBody,
  ClaudeCodePreToolUseResponse,
  DecideBody,
  DecideResponse,
  GateDocument,
  GateViewResponse,
  InterventionDocument,
  MeResponse,
  PolicyView,
  RunDetailResponse,
  RunDocument,
} from 'gatehouse-hitl-protocol';
import {
  agentRoutes,
  authRoutes,
  claudeCodeRoutes,
  gateActionRoutes,
  gateRoutes,
  policyRoutes,
  runRoutes,
} from 'gatehouse-hitl-protocol';
import { Gatehouse } from 'gatehouse-hitl-sdk';
import { type ApiTarget, sendRoute } from './http-json.js';

/** Where the MCP server reaches Gatehouse and with whose token. */
export interface ApiOptions {
  /** The server, e.g. `http://127.0.0.1:7300`. */
  url: string;
  /** The caller's bearer token: an agent token, or a person's session token. */
  token: string;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
}

/** Who the token belongs to, as `GET /v1/me` says. */
export type Me = MeResponse;

/** A run with the place its agent resumes after a phase review. */
export type RunDetail = RunDetailResponse;

/** The answer of `POST /v1/gates/:id/decide`: `decision` is null for a partial N-of-M approval. */
export type DecideResult = DecideResponse;

export type { DecideBody, PolicyView };

/**
 * The Gatehouse calls the MCP tools make: the SDK for the agent's operations, plus the few reads
 * and the decide call the SDK does not wrap. Every rule is the server's; this only carries calls.
 */
export class GatehouseApi {
  /** The agent client: request, waitForGate, reportConfidence, checkpoint, consume. */
  readonly sdk: Gatehouse;
  readonly #base: string;
  readonly #fetch: typeof fetch;
  readonly #target: ApiTarget;

  constructor(options: ApiOptions) {
    this.#base = options.url.replace(/\/+$/, '');
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.#target = { base: this.#base, token: options.token, fetch: this.#fetch };
    // Tools wait at most a minute, so a long-poll never needs to be longer than that.
    this.sdk = new Gatehouse({
      url: this.#base,
      token: options.token,
      fetch: this.#fetch,
      waitTimeoutMs: 20_000,
      retry: { maxElapsedMs: 15_000 },
    });
  }

  /** Who the token belongs to. */
  me(signal?: AbortSignal): Promise<Me> {
    return sendRoute(this.#target, authRoutes.me, {}, signal);
  }

  /** The active policy (readable by people and agents). */
  policy(signal?: AbortSignal): Promise<PolicyView> {
    return sendRoute(this.#target, policyRoutes.get, {}, signal);
  }

  /** A run with its resume plan. */
  run(runId: string, signal?: AbortSignal): Promise<RunDetail> {
    return sendRoute(this.#target, runRoutes.get, { params: { id: runId } }, signal);
  }

  /** The newest runs the token may see. */
  async runs(limit: number, signal?: AbortSignal): Promise<RunDocument[]> {
    const page = await sendRoute(this.#target, runRoutes.list, { query: { limit } }, signal);
    return page.items;
  }

  /** Pending gates, of one run or of everything the token may see. */
  async pendingGates(runId: string | null, signal?: AbortSignal): Promise<GateDocument[]> {
    const run = runId === null ? {} : { runId };
    const page = await sendRoute(
      this.#target,
      gateRoutes.list,
      { query: { status: 'pending', limit: 100, ...run } },
      signal,
    );
    return page.items;
  }

  /** The agents a person may pick (to delegate a task to, say): id and name. */
  async agents(signal?: AbortSignal): Promise<{ id: string; name: string }[]> {
    const body = await sendRoute(this.#target, agentRoutes.list, {}, signal);
    return body.agents.map(({ id: agentId, name }) => ({ id: agentId, name }));
  }

  /** A gate with its Summary of Action. */
  gate(gateId: string, signal?: AbortSignal): Promise<GateViewResponse> {
    return sendRoute(this.#target, gateRoutes.get, { params: { id: gateId } }, signal);
  }

  /** A run's interventions after `after` (epoch ms), oldest first. */
  async interventions(
    runId: string,
    after: number | null,
    signal?: AbortSignal,
  ): Promise<InterventionDocument[]> {
    const query = after === null ? {} : { after };
    const page = await sendRoute(
      this.#target,
      runRoutes.interventions,
      { params: { id: runId }, query },
      signal,
    );
    return page.items;
  }

  /** Decides a gate; only a person's token may (the server answers 403 to agent tokens). */
  decide(gateId: string, body: DecideBody, signal?: AbortSignal): Promise<DecideResult> {
    return sendRoute(this.#target, gateActionRoutes.decide, { params: { id: gateId }, body }, signal);
  }

  /** Claude Code's PreToolUse hook on the server: the policy, gates and wording the hooks share. */
  claudeCodePreToolUse(
    input: ClaudeCodePreToolUseBody,
    query: { waitMs: number; runId: string | null },
    signal?: AbortSignal,
  ): Promise<ClaudeCodePreToolUseResponse> {
    const run = query.runId === null ? {} : { runId: query.runId };
    return sendRoute(
      this.#target,
      claudeCodeRoutes.preToolUse,
      { query: { mode: 'wait', waitMs: query.waitMs, ...run }, body: input },
      signal,
    );
  }
}
