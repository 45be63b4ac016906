import type { Tool } from 'ai';
import { GatehouseApiError } from 'gatehouse-hitl-protocol/rules';
import { payloadText } from '../payload.js';
import type { GateResult, RequestOptions } from '../types.js';
import {
  type AdapterClient,
  type AdapterRequestFields,
  adapterKey,
  approvalUsedMessage,
  approvedAction,
  approvedInputAfterRestart,
  argsOf,
  inputOf,
} from './decision.js';

/** How the tools of `gatehouseTools` and `withGatehouseApproval` ask Gatehouse. */
export interface GatehouseToolOptions {
  /** Request fields for every call (run, risk, context, timeout, …), fixed or from the call's input. */
  request?: AdapterRequestFields | ((input: unknown, toolName: string) => AdapterRequestFields);
  /**
   * Gatehouse tool names by tool key, when the policy knows a tool under another name.
   * @default the key in the tool set
   */
  names?: Readonly<Record<string, string>>;
  /** Hears each gate a person must decide, before anything waits on it. */
  onGate?: (gateId: string, toolName: string) => void;
}

/** The execution options the AI SDK passes a tool's `execute` (generic in 7, plain in 6). */
export type ExecutionOptions = Parameters<NonNullable<Tool['execute']>>[1];

export interface Binding {
  toolName: string;
  options: GatehouseToolOptions;
  /** Announces a gate once, however often the SDK asks about the call. */
  announce: (gateId: string, toolName: string) => void;
  /** Approved edited inputs by tool call id, run in place of the model's input. */
  edits: Map<string, unknown>;
  /**
   * Tool call ids whose one-off approval this process used and has not run yet: the SDK asks again
   * just before it runs such a call, and may go ahead once. Running the call takes it out, so a model
   * that sends the same call id again meets the used approval and is refused.
   */
  used: Set<string>;
  /** Tool call ids the policy let through in this process, not run yet. */
  allowed: Set<string>;
}

/** How many used approvals a binding remembers. */
const USED_LIMIT = 1_000;

/** The Gatehouse binding of each tool returned by `gatehouseTools`, so answers rebuild the same request. */
export const bindings = new WeakMap<object, Binding>();

export async function requestFor(
  binding: Binding,
  input: unknown,
  toolCallId: string,
): Promise<RequestOptions> {
  const { request } = binding.options;
  const fields = typeof request === 'function' ? request(input, binding.toolName) : (request ?? {});
  const action = { tool: binding.toolName, args: argsOf(input) };
  const key = await adapterKey('ai', [fields.runId ?? '', toolCallId, payloadText(action)]);
  return { ...fields, ...action, idempotencyKey: key };
}

/**
 * Uses an approval for one tool call: checks it covers exactly the asked-for action (or a person's
 * edit of it), marks a one-off approval used, and keeps an edit for the tool's execute to run.
 */
export async function useApproval(
  gatehouse: AdapterClient,
  binding: Binding,
  result: GateResult,
  request: RequestOptions,
  toolCall: { toolCallId: string; input: unknown },
  signal?: AbortSignal,
): Promise<void> {
  const run = await approvedAction(result, { tool: request.tool, args: request.args });
  await gatehouse.consume(result, run, signal ? { signal } : {});
  rememberCall(binding.used, toolCall.toolCallId);
  if (result.edited) binding.edits.set(toolCall.toolCallId, inputOf(run.args ?? {}, toolCall.input));
}

/** Adds `id` to a set of call ids kept to its last USED_LIMIT. */
export function rememberCall(calls: Set<string>, id: string): void {
  calls.add(id);
  if (calls.size > USED_LIMIT) calls.delete(calls.values().next().value as string);
}

/**
 * The input to run for a call this process knows nothing of: it restarted after the call's approval
 * and carries on from the saved messages; a call Gatehouse did not approve is refused with what the
 * model should read.
 */
export async function rereadInput(
  gatehouse: AdapterClient,
  binding: Binding,
  input: unknown,
  toolCallId: string,
  signal?: AbortSignal,
): Promise<unknown> {
  const request = await requestFor(binding, input, toolCallId);
  const answer = await approvedInputAfterRestart(gatehouse, request, input, binding.toolName, {
    takesEdits: true,
    signal,
  });
  if ('message' in answer) throw new Error(answer.message);
  return answer.input;
}

/** Uses the approval as `useApproval` does; a used one does not cover the call again: returns why. */
export async function useApprovalOnce(
  gatehouse: AdapterClient,
  binding: Binding,
  result: GateResult,
  request: RequestOptions,
  toolCall: { toolCallId: string; input: unknown },
  signal?: AbortSignal,
): Promise<string | null> {
  try {
    await useApproval(gatehouse, binding, result, request, toolCall, signal);
    return null;
  } catch (error) {
    if (!(error instanceof GatehouseApiError && error.code === 'APPROVAL_USED')) throw error;
    return approvalUsedMessage(result.gateId, binding.toolName);
  }
}
