import type {
  DecideBody,
  DecideResponse,
  GateDocument,
  GateListResponse,
  GateViewResponse,
  InterventionDocument,
  InterventionListResponse,
  MeResponse,
  PolicyView,
  RunDetailResponse,
  RunDocument,
  RunListResponse,
} from 'gatehouse-hitl-protocol';
import { decodeWireError } from 'gatehouse-hitl-protocol';
import { Gatehouse, GatehouseApiError } from 'gatehouse-hitl-sdk';

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

const ATTEMPT_TIMEOUT_MS = 30_000;
const id = (value: string) => encodeURIComponent(value);

/**
 * The Gatehouse calls the MCP tools make: the SDK for the agent's operations, plus the few reads
 * and the decide call the SDK does not wrap. Every rule is the server's; this only carries calls.
 */
export class GatehouseApi {
  /** The agent client: request, waitForGate, reportConfidence, checkpoint, consume. */
  readonly sdk: Gatehouse;
  readonly #base: string;
  readonly #token: string;
  readonly #fetch: typeof fetch;

  constructor(options: ApiOptions) {
    this.#base = options.url.replace(/\/+$/, '');
    this.#token = options.token;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
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
    return this.#json('GET', '/v1/me', undefined, signal);
  }

  /** The active policy (readable by people and agents). */
  policy(signal?: AbortSignal): Promise<PolicyView> {
    return this.#json('GET', '/v1/policy', undefined, signal);
  }

  /** A run with its resume plan. */
  run(runId: string, signal?: AbortSignal): Promise<RunDetail> {
    return this.#json('GET', `/v1/runs/${id(runId)}`, undefined, signal);
  }

  /** The newest runs the token may see. */
  async runs(limit: number, signal?: AbortSignal): Promise<RunDocument[]> {
    const page = await this.#json<RunListResponse>('GET', `/v1/runs?limit=${limit}`, undefined, signal);
    return page.items;
  }

  /** Pending gates, of one run or of everything the token may see. */
  async pendingGates(runId: string | null, signal?: AbortSignal): Promise<GateDocument[]> {
    const run = runId === null ? '' : `&runId=${id(runId)}`;
    const page = await this.#json<GateListResponse>(
      'GET',
      `/v1/gates?status=pending&limit=100${run}`,
      undefined,
      signal,
    );
    return page.items;
  }

  /** A gate with its Summary of Action. */
  gate(gateId: string, signal?: AbortSignal): Promise<GateViewResponse> {
    return this.#json('GET', `/v1/gates/${id(gateId)}`, undefined, signal);
  }

  /** A run's interventions after `after` (epoch ms), oldest first. */
  async interventions(
    runId: string,
    after: number | null,
    signal?: AbortSignal,
  ): Promise<InterventionDocument[]> {
    const query = after === null ? '' : `?after=${after}`;
    const page = await this.#json<InterventionListResponse>(
      'GET',
      `/v1/runs/${id(runId)}/interventions${query}`,
      undefined,
      signal,
    );
    return page.items;
  }

  /** Decides a gate; only a person's token may (the server answers 403 to agent tokens). */
  decide(gateId: string, body: DecideBody, signal?: AbortSignal): Promise<DecideResult> {
    return this.#json('POST', `/v1/gates/${id(gateId)}/decide`, body, signal);
  }

  async #json<T>(method: 'GET' | 'POST', path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    const timeout = AbortSignal.timeout(ATTEMPT_TIMEOUT_MS);
    const headers: Record<string, string> = { authorization: `Bearer ${this.#token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await this.#fetch(`${this.#base}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      const detail = error instanceof Error ? error.message : String(error);
      throw new GatehouseApiError(
        'SERVICE_UNAVAILABLE',
        `cannot reach the Gatehouse server at ${this.#base}: ${detail}`,
        { status: 0, details: { url: this.#base }, cause: error },
      );
    }
    const text = await response.text();
    if (!response.ok) {
      const retryAfter = response.headers.get('retry-after');
      throw decodeWireError(response.status, text, { statusText: response.statusText, retryAfter });
    }
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }
}
