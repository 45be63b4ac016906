import type { ModelMessage, ToolSet } from 'ai';
import type { GateResult } from '../types.js';
import { bindings, rememberCall, requestFor, useApprovalOnce } from './ai-binding.js';
import { type AdapterClient, decisionOf, messageForModel, openGate } from './decision.js';

/** An approval status of the AI SDK 7's `toolApproval` option. */
export type GatehouseApprovalStatus =
  | 'not-applicable'
  | 'user-approval'
  | { type: 'approved' | 'denied' | 'user-approval'; reason?: string };

/** What the AI SDK 7 hands a `toolApproval` function about one tool call. */
export interface ToolApprovalCall {
  toolCall: { toolCallId: string; toolName: string; input: unknown };
  tools?: ToolSet | undefined;
  toolsContext?: unknown;
  messages: ModelMessage[];
}

/** The tool call was put to approval before: the history holds an approval request for it. */
function askedBefore(messages: readonly ModelMessage[], toolCallId: string): boolean {
  return messages.some(
    (message) =>
      message.role === 'assistant' &&
      Array.isArray(message.content) &&
      message.content.some(
        (part) =>
          part.type === 'tool-approval-request' &&
          (part as { toolCallId?: string }).toolCallId === toolCallId,
      ),
  );
}

/** A tool that is not behind Gatehouse keeps its own `needsApproval` (the option replaces it). */
async function ownStatus({
  toolCall,
  tools,
  toolsContext,
  messages,
}: ToolApprovalCall): Promise<GatehouseApprovalStatus> {
  const needsApproval = tools?.[toolCall.toolName]?.needsApproval;
  if (typeof needsApproval !== 'function') return needsApproval ? 'user-approval' : 'not-applicable';
  const context = (toolsContext as Record<string, unknown> | undefined)?.[toolCall.toolName];
  const needed = await needsApproval(
    toolCall.input as never,
    {
      toolCallId: toolCall.toolCallId,
      messages,
      context,
    } as never,
  );
  return needed ? 'user-approval' : 'not-applicable';
}

/**
 * The AI SDK 7's `toolApproval` for tools made by `gatehouseTools`, answered by Gatehouse on every
 * evaluation: a call the policy allows runs; a policy denial reaches the model as
 * `execution-denied` at once, without an approval round; a gate ends the step with a
 * `tool-approval-request` for `answerApprovals`. When the SDK re-checks an approval from the message
 * history before running the call, Gatehouse's decision counts, not the history: an undecided or
 * refused gate denies the call. Other tools keep their own `needsApproval`.
 *
 * @example
 * const tools = gatehouseTools(gatehouse, { delete_file: deleteFile }, { request: { runId } });
 * const toolApproval = gatehouseToolApproval(gatehouse);
 * const first = await generateText({ model, tools, toolApproval, messages });
 */
export function gatehouseToolApproval(
  gatehouse: AdapterClient,
  options: { signal?: AbortSignal } = {},
): (call: ToolApprovalCall) => Promise<GatehouseApprovalStatus> {
  return async (call) => {
    const { toolCall, tools } = call;
    const tool = tools?.[toolCall.toolName];
    const binding = tool === undefined ? undefined : bindings.get(tool);
    if (binding === undefined) return ownStatus(call);
    const request = await requestFor(binding, toolCall.input, toolCall.toolCallId);
    const opened = await openGate(gatehouse, { ...request, signal: options.signal });
    const { toolName } = binding;
    let result: GateResult;
    if (opened.status === 'pending') {
      if (!askedBefore(call.messages, toolCall.toolCallId)) {
        binding.announce(opened.gateId, toolName);
        return { type: 'user-approval', reason: `Gatehouse gate ${opened.gateId}` };
      }
      // The SDK re-checks an approval from the history: only a decision in Gatehouse counts.
      const { gate } = await gatehouse.getGate(opened.gateId, { signal: options.signal });
      if (gate.status === 'pending') {
        const reason = `No decision on gate ${opened.gateId} yet; the call to ${toolName} was not run.`;
        return { type: 'denied', reason };
      }
      result = await gatehouse.request({ ...request, signal: options.signal });
    } else {
      result = opened.result;
    }
    if (result.outcome !== 'approved') {
      return { type: 'denied', reason: messageForModel(decisionOf(result), toolName) };
    }
    if (result.gateId === null) rememberCall(binding.allowed, toolCall.toolCallId);
    if (result.gateId === null || binding.used.has(toolCall.toolCallId)) return 'not-applicable';
    // A person approved in Gatehouse while another process answered the SDK: use the approval here.
    const reason = await useApprovalOnce(gatehouse, binding, result, request, toolCall, options.signal);
    return reason === null ? 'not-applicable' : { type: 'denied', reason };
  };
}
