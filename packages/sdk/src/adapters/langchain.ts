import { Command } from '@langchain/langgraph';
import { payloadText } from '../payload.js';
import type { RequestOptions } from '../types.js';
import {
  type AdapterClient,
  type AdapterRequestFields,
  adapterKey,
  announceOnce,
  approvedAction,
  argsOf,
  consumeOnce,
  decisionOf,
  type GatehouseDecision,
  messageForModel,
} from './decision.js';

export type { AdapterRequestFields, GatehouseDecision } from './decision.js';

/** `humanInTheLoopMiddleware`'s interrupt value (LangChain v1's `HITLRequest`). */
export interface HitlRequest {
  actionRequests: ReadonlyArray<{ name: string; args: Record<string, unknown>; description?: string }>;
  reviewConfigs: ReadonlyArray<{ actionName: string; allowedDecisions: ReadonlyArray<string> }>;
}

/** One answer of `HITLResponse.decisions`. */
export type HitlDecision =
  | { type: 'approve' }
  | { type: 'edit'; editedAction: { name: string; args: Record<string, unknown> } }
  | { type: 'reject'; message?: string };

/** The model's tool call an action request was made from. */
export interface HitlToolCall {
  id?: string | undefined;
  name: string;
  args: Record<string, unknown>;
}

/** What `resumeWithGatehouse` needs from an agent made by `createAgent`. */
export interface HitlAgent<C, R> {
  graph: {
    getState(config: C): Promise<{
      values: unknown;
      tasks: ReadonlyArray<{ interrupts: ReadonlyArray<{ id?: string; value?: unknown }> }>;
    }>;
  };
  invoke(input: Command<unknown, never, never>, config: C): Promise<R>;
}

export interface HitlOptions {
  /** The agent's thread, part of each request's idempotency key so a resume finds the same gate. */
  threadId: string;
  /** Request fields for every action (run, risk, context, timeout, …). */
  request?: AdapterRequestFields;
  /** Hears each decision as it becomes an answer to the middleware. */
  onDecision?: (decision: GatehouseDecision, toolName: string) => void;
  /** Hears each gate once when it opens, so the agent can say where a person decides it. */
  onGate?: (gateId: string, toolName: string) => void;
  signal?: AbortSignal;
}

const isHitlRequest = (value: unknown): value is HitlRequest =>
  value !== null && typeof value === 'object' && Array.isArray((value as HitlRequest).actionRequests);

function answerFor(
  decision: GatehouseDecision,
  toolName: string,
  allowed: ReadonlyArray<string>,
): HitlDecision {
  const reject = (message: string): HitlDecision => {
    // A person's refusal must never become an approval, whatever the agent allows.
    if (!allowed.includes('reject')) throw new TypeError(`${toolName} does not allow reject decisions`);
    return { type: 'reject', message };
  };
  if (decision.outcome !== 'approved') return reject(messageForModel(decision, toolName));
  if (!decision.edited)
    return allowed.includes('approve') ? { type: 'approve' } : reject('Approve is not allowed.');
  if (!allowed.includes('edit')) {
    return reject(
      `A reviewer approved ${toolName} only with edited arguments, which this agent does not allow.`,
    );
  }
  return { type: 'edit', editedAction: { name: toolName, args: decision.args ?? {} } };
}

/**
 * Answers one `humanInTheLoopMiddleware` interrupt from Gatehouse: a gate per action request (or
 * the policy's answer), waiting for each in parallel; approve → `approve`, an approval with edited
 * arguments → `edit` with them, anything else → `reject` with the reason or steer instructions.
 * One-off approvals are used for exactly what runs. `toolCalls` are the model's calls the requests
 * were made from (their ids key the requests).
 */
export async function gatehouseDecisions(
  gatehouse: AdapterClient,
  hitl: HitlRequest,
  toolCalls: ReadonlyArray<HitlToolCall>,
  options: HitlOptions,
): Promise<HitlDecision[]> {
  const unmatched = [...toolCalls];
  const requests = hitl.actionRequests.map((action) => {
    const at = unmatched.findIndex(
      (call) => call.name === action.name && payloadText(call.args) === payloadText(action.args),
    );
    const [call] = at === -1 ? [undefined] : unmatched.splice(at, 1);
    return { action, callId: call?.id ?? '' };
  });
  const announce = announceOnce(options.onGate);
  return Promise.all(
    requests.map(async ({ action, callId }, index) => {
      const spec = { tool: action.name, args: argsOf(action.args) };
      const key = await adapterKey('langchain', [
        options.threadId,
        callId || String(index),
        options.request?.runId ?? '',
        payloadText(spec),
      ]);
      const sent: RequestOptions = {
        ...options.request,
        ...spec,
        idempotencyKey: key,
        signal: options.signal,
        onGate: (gateId) => announce(gateId, action.name),
      };
      const result = await gatehouse.request(sent);
      const decision = decisionOf(result);
      const allowed =
        hitl.reviewConfigs.find((config) => config.actionName === action.name)?.allowedDecisions ?? [];
      let answer = answerFor(decision, action.name, allowed);
      if (answer.type !== 'reject') {
        const run = await approvedAction(result, spec);
        const used = await consumeOnce(gatehouse, result, run, action.name, options.signal);
        if (used !== null) {
          // Never an approval again; without reject among the agent's decisions, nothing to answer.
          if (!allowed.includes('reject'))
            throw new TypeError(`${action.name} does not allow reject: ${used}`);
          answer = { type: 'reject', message: used };
        }
      }
      options.onDecision?.(decision, action.name);
      return answer;
    }),
  );
}

/** The last AI message's tool calls in an agent state. */
function lastToolCalls(values: unknown): HitlToolCall[] {
  const messages = (values as { messages?: unknown[] } | null)?.messages ?? [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const calls = (messages[index] as { tool_calls?: HitlToolCall[] }).tool_calls;
    if (Array.isArray(calls) && calls.length > 0) return calls;
  }
  return [];
}

/**
 * Resumes an agent made by `createAgent` with `humanInTheLoopMiddleware` that paused on its
 * interrupt, answering it from Gatehouse instead of a person at the terminal: the agent keeps its
 * `interruptOn` configuration and only the decision source changes.
 *
 * @example
 * let state = await agent.invoke({ messages }, config);
 * if (state.__interrupt__) state = await resumeWithGatehouse(agent, config, gatehouse, { threadId, request: { runId } });
 */
export async function resumeWithGatehouse<C, R>(
  agent: HitlAgent<C, R>,
  config: C,
  gatehouse: AdapterClient,
  options: HitlOptions,
): Promise<R> {
  const snapshot = await agent.graph.getState(config);
  const pending = snapshot.tasks.flatMap((task) =>
    task.interrupts.flatMap((paused) =>
      isHitlRequest(paused.value) ? [{ id: paused.id, value: paused.value }] : [],
    ),
  );
  if (pending.length === 0) throw new TypeError('the agent is not waiting on a human-in-the-loop interrupt');
  const toolCalls = lastToolCalls(snapshot.values);
  const answered = await Promise.all(
    pending.map(async (paused) => ({
      id: paused.id ?? '',
      resume: { decisions: await gatehouseDecisions(gatehouse, paused.value, toolCalls, options) },
    })),
  );
  const [only] = answered;
  const resume =
    answered.length === 1 && only !== undefined
      ? only.resume
      : Object.fromEntries(answered.map((answer) => [answer.id, answer.resume]));
  return agent.invoke(new Command<unknown, never, never>({ resume }), config);
}
