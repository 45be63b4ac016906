import { GatehouseApiError } from 'gatehouse-hitl-protocol/rules';
import { linkSignals } from '../backoff.js';
import type { Gatehouse } from '../client.js';
import { payloadHash, sha256Hex } from '../payload.js';
import { assertApprovalCovers } from '../result.js';
import type { ActionSpec, GateResult, InterventionNotice, Outcome, RequestOptions } from '../types.js';

/** What the framework adapters need from the client. */
export type AdapterClient = Pick<Gatehouse, 'request' | 'waitForGate' | 'consume' | 'getGate'>;

/**
 * Request fields an adapter adds to each tool call it asks about (run, risk, context, timeout, …);
 * the adapter sets the action, the idempotency key and the signal itself.
 */
export type AdapterRequestFields = Omit<
  RequestOptions,
  'tool' | 'operation' | 'args' | 'idempotencyKey' | 'signal' | 'onGate'
>;

/** A Gatehouse answer as plain JSON, for a framework's state or a model's tool result. */
export interface GatehouseDecision {
  outcome: Outcome;
  /** The option a person (or the timeout) chose; null when the policy answered. */
  option: string | null;
  reason: string | null;
  /** Steer instructions, delivered verbatim: data for the agent, never something to execute. */
  instructions: string | null;
  feedback: string | null;
  gateId: string | null;
  /** `policy`, `system:timeout`, or the person who decided. */
  decidedBy: string | null;
  payloadHash: string | null;
  /** The arguments to run: a person's edited arguments when `edited`, else the agent's own. */
  args: Record<string, unknown> | null;
  /** A person changed the arguments before approving; run `args`, never the proposal. */
  edited: boolean;
  /** A question gate's answer. */
  answer: string | null;
  /** Interventions (pause, steer, …) the server handed over with this answer. */
  interventions: InterventionNotice[];
}

/** The answer to a request sent without waiting: the policy's answer, or the gate a person must decide. */
export type Opened = { status: 'answered'; result: GateResult } | { status: 'pending'; gateId: string };

const OPENED = Symbol('gate opened');

/**
 * Sends a request without waiting for a person: the policy's answer comes back as it is, a gate
 * as its id (to wait on later with the same idempotency key or `waitForGate`).
 */
export async function openGate(client: AdapterClient, request: RequestOptions): Promise<Opened> {
  const controller = new AbortController();
  const linked = linkSignals(request.signal, controller.signal);
  let gateId: string | null = null;
  try {
    const result = await client.request({
      ...request,
      signal: linked.signal,
      onGate: (id) => {
        gateId = id;
        controller.abort(OPENED);
      },
    });
    return { status: 'answered', result };
  } catch (error) {
    if (gateId !== null && controller.signal.reason === OPENED) return { status: 'pending', gateId };
    throw error;
  } finally {
    linked.dispose();
  }
}

/** How many announced gate ids `announceOnce` remembers. */
const ANNOUNCED_LIMIT = 1_000;

/**
 * Wraps an `onGate` hook so each gate is announced once, although frameworks ask again about a call
 * they are resuming (the request then finds the same gate).
 */
export function announceOnce(
  onGate: ((gateId: string, toolName: string) => void) | undefined,
): (gateId: string, toolName: string) => void {
  const announced = new Set<string>();
  return (gateId, toolName) => {
    if (onGate === undefined || announced.has(gateId)) return;
    announced.add(gateId);
    if (announced.size > ANNOUNCED_LIMIT) announced.delete(announced.values().next().value as string);
    onGate(gateId, toolName);
  };
}

/** The plain-JSON form of an answer. */
export function decisionOf(result: GateResult): GatehouseDecision {
  return {
    outcome: result.outcome,
    option: result.option,
    reason: result.reason,
    instructions: result.instructions,
    feedback: result.feedback,
    gateId: result.gateId,
    decidedBy: result.decidedBy,
    payloadHash: result.payloadHash,
    args: result.args,
    edited: result.edited,
    answer: result.answer,
    interventions: result.interventions,
  };
}

/**
 * The action an approval lets run: the asked-for action, or the same tool with a person's edited
 * arguments after checking that the approval covers exactly those (and was given for this request).
 */
export async function approvedAction(result: GateResult, action: ActionSpec): Promise<ActionSpec> {
  await assertApprovalCovers(result, action, await payloadHash(action));
  return result.edited ? { ...action, args: result.args ?? {} } : action;
}

/**
 * The input to run for a call a framework approved in an earlier process (it restarted between the
 * approval and the tool's run, and kept nothing of it): the same request, so the same gate or the
 * policy's same answer, gives a person's edit in place of the model's input, or the message the model
 * reads instead when Gatehouse did not approve it (or approved an edit the tool cannot take). A
 * one-off approval is used here unless it was used before the restart.
 */
export async function approvedInputAfterRestart(
  gatehouse: AdapterClient,
  request: RequestOptions,
  input: unknown,
  toolName: string,
  options: { takesEdits: boolean; signal?: AbortSignal | undefined },
): Promise<{ input: unknown } | { message: string }> {
  const result = await gatehouse.request({ ...request, signal: options.signal });
  if (result.outcome !== 'approved' || (result.edited && !options.takesEdits)) {
    return { message: messageForModel(decisionOf(result), toolName) };
  }
  const run = await approvedAction(result, { tool: request.tool, args: request.args });
  // Used already means used when the framework recorded the approval, before the restart.
  await consumeOnce(gatehouse, result, run, toolName, options.signal);
  return { input: result.edited ? inputOf(run.args ?? {}, input) : input };
}

/** What the model reads when the one-off approval of its call had been used already. */
export function approvalUsedMessage(gateId: string | null, toolName: string): string {
  return `The approval on gate ${gateId} was already used; the call to ${toolName} was not run again.`;
}

/**
 * Uses a one-off approval for `run`. Used already (a model that sent the same call again, or an
 * earlier resumption that stopped after using it) it does not cover the call again: the message the
 * model reads instead is returned, and the call must not run.
 */
export async function consumeOnce(
  gatehouse: AdapterClient,
  result: GateResult,
  run: ActionSpec,
  toolName: string,
  signal?: AbortSignal,
): Promise<string | null> {
  try {
    await gatehouse.consume(result, run, signal ? { signal } : {});
    return null;
  } catch (error) {
    if (!(error instanceof GatehouseApiError && error.code === 'APPROVAL_USED')) throw error;
    return approvalUsedMessage(result.gateId, toolName);
  }
}

/** A tool's input rebuilt from approved arguments: `argsOf` in reverse. */
export function inputOf(args: Record<string, unknown>, original: unknown): unknown {
  const wrapped = original === null || typeof original !== 'object' || Array.isArray(original);
  return wrapped ? args.input : args;
}

/** JSON-quoted text: whatever a reviewer wrote stays one delimited string the model reads as data. */
const quoted = (text: string) => JSON.stringify(text);

/**
 * What the model reads when its tool call did not run: the outcome, the gate, and the reviewer's
 * reason or steer instructions as quoted data.
 */
export function messageForModel(decision: GatehouseDecision, toolName: string): string {
  const gate = decision.gateId === null ? 'by policy' : `gate ${decision.gateId}`;
  const reason = decision.reason ? ` Reason (quoted reviewer text): ${quoted(decision.reason)}.` : '';
  switch (decision.outcome) {
    case 'approved':
      return decision.edited
        ? `A reviewer edited the call to ${toolName} and approved the edited arguments (${gate}); it ran with them: ${JSON.stringify(decision.args)}.`
        : `Gatehouse approved the call to ${toolName} (${gate}).`;
    case 'denied':
      return `Gatehouse denied the call to ${toolName} (${gate}); it was not run.${reason} Do not repeat the same call.`;
    case 'steered':
      return (
        `A reviewer steered the call to ${toolName} instead of approving it (${gate}); it was not run. ` +
        `Follow the reviewer's instructions, quoted as data: ${quoted(decision.instructions ?? '')}.`
      );
    case 'timed_out':
      return `No decision arrived before the deadline (${gate}); the call to ${toolName} was not run.${reason}`;
    case 'cancelled':
      return `The approval was cancelled (${gate}), e.g. because the run was stopped; the call to ${toolName} was not run.`;
    default:
      return `The reviewer chose ${quoted(decision.outcome)} (${gate}); the call to ${toolName} was not run.${reason}`;
  }
}

/** A tool input as the arguments an approval binds to: objects as they are, anything else as `{ input }`. */
export function argsOf(input: unknown): Record<string, unknown> {
  if (input !== null && typeof input === 'object' && !Array.isArray(input)) {
    return input as Record<string, unknown>;
  }
  return { input };
}

/**
 * An idempotency key from a framework's own ids (tool call id, thread, task), hashed so any id
 * fits the header's printable-ASCII limit and a retry of the same call finds the same gate.
 */
export async function adapterKey(scope: string, parts: readonly string[]): Promise<string> {
  return `${scope}:${(await sha256Hex(parts.join('\n'))).slice(0, 48)}`;
}
