import type { Tool, ToolApprovalRequestOutput, ToolApprovalResponse, ToolModelMessage, ToolSet } from 'ai';
import {
  type Binding,
  bindings,
  type ExecutionOptions,
  type GatehouseToolOptions,
  rememberCall,
  requestFor,
  rereadInput,
  useApprovalOnce,
} from './ai-binding.js';
import {
  type AdapterClient,
  announceOnce,
  approvedAction,
  decisionOf,
  type GatehouseDecision,
  inputOf,
  messageForModel,
  openGate,
} from './decision.js';

export type { GatehouseApprovalStatus, ToolApprovalCall } from './ai-approval.js';
export { gatehouseToolApproval } from './ai-approval.js';
export type { GatehouseToolOptions } from './ai-binding.js';
export type { AdapterRequestFields, GatehouseDecision } from './decision.js';

/** One answered approval request of the AI SDK. */
export interface ApprovalAnswer {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  decision: GatehouseDecision;
}

/** What a tool wrapped by `withGatehouseApproval` returns to the model when the call did not run. */
export interface GatehouseRefusal {
  gatehouse: 'not_run';
  outcome: string;
  gateId: string | null;
  reason: string | null;
  instructions: string | null;
  /** The same facts as one sentence, reviewer text quoted as data. */
  message: string;
}

/**
 * Puts each tool behind Gatehouse with the AI SDK's own tool approval: a call the policy allows
 * runs at once; any other call ends the step with a `tool-approval-request`, which
 * `answerApprovals` answers with the Gatehouse decision.
 *
 * @example
 * const tools = gatehouseTools(gatehouse, { delete_file: deleteFile }, { request: { runId } });
 * const first = await generateText({ model, tools, messages });
 * const { message } = await answerApprovals(gatehouse, first, tools);
 * if (message) await generateText({ model, tools, messages: [...messages, ...first.response.messages, message] });
 */
export function gatehouseTools<TOOLS extends ToolSet>(
  gatehouse: AdapterClient,
  tools: TOOLS,
  options: GatehouseToolOptions = {},
): TOOLS {
  const gated: Record<string, Tool> = {};
  const announce = announceOnce(options.onGate);
  for (const [key, tool] of Object.entries(tools)) {
    const toolName = options.names?.[key] ?? key;
    const binding: Binding = {
      toolName,
      options,
      announce,
      edits: new Map(),
      used: new Set(),
      allowed: new Set(),
    };
    const execute = tool.execute;
    const wrapped = {
      ...tool,
      // Neither 6's nor 7's approval can carry an edit, so a person's approved edit is run here instead.
      ...(execute === undefined
        ? {}
        : {
            execute: async (input: unknown, execution: ExecutionOptions) => {
              const id = execution.toolCallId;
              const edited = binding.edits.get(id);
              const cleared = binding.used.has(id) || binding.allowed.has(id);
              binding.edits.delete(id);
              binding.used.delete(id);
              binding.allowed.delete(id);
              if (cleared) return execute(edited === undefined ? input : edited, execution);
              // Nothing of this call is in memory: the process restarted after the SDK was told of its approval.
              return execute(
                await rereadInput(gatehouse, binding, input, id, execution.abortSignal),
                execution,
              );
            },
          }),
      needsApproval: async (input: unknown, { toolCallId }: { toolCallId: string }) => {
        const opened = await openGate(gatehouse, await requestFor(binding, input, toolCallId));
        if (opened.status === 'pending') {
          announce(opened.gateId, binding.toolName);
          return true;
        }
        // The AI SDK 6 path (7 uses `gatehouseToolApproval`): a policy denial also goes through the
        // approval flow, so the model reads its reason. A call the policy allows runs; an approved
        // gate runs only once `answerApprovals` used its approval for this very call (the SDK asks
        // again just before running it), never on a used approval a repeated call id points at.
        const { result } = opened;
        if (result.outcome !== 'approved') return true;
        if (result.gateId === null) rememberCall(binding.allowed, toolCallId);
        return result.gateId !== null && !binding.used.has(toolCallId);
      },
    } as Tool;
    bindings.set(wrapped, binding);
    gated[key] = wrapped;
  }
  return gated as TOOLS;
}

/** An approval request a person must answer; 7 also lists the ones its `toolApproval` answered itself. */
const isApprovalRequest = (part: { type: string }): part is ToolApprovalRequestOutput<ToolSet> =>
  part.type === 'tool-approval-request' && (part as { isAutomatic?: boolean }).isAutomatic !== true;

async function answerOne(
  gatehouse: AdapterClient,
  part: ToolApprovalRequestOutput<ToolSet>,
  binding: Binding,
  signal: AbortSignal | undefined,
): Promise<{ response: ToolApprovalResponse; answer: ApprovalAnswer }> {
  const { toolCall, approvalId } = part;
  const request = await requestFor(binding, toolCall.input, toolCall.toolCallId);
  const result = await gatehouse.request({ ...request, signal });
  const decision = decisionOf(result);
  const answer = { approvalId, toolCallId: toolCall.toolCallId, toolName: binding.toolName, decision };
  if (result.outcome !== 'approved') {
    const reason = messageForModel(decision, binding.toolName);
    return { response: { type: 'tool-approval-response', approvalId, approved: false, reason }, answer };
  }
  // The SDK runs the call from the message history; a person's edit replaces its input when it runs.
  if (!binding.used.has(toolCall.toolCallId)) {
    const reason = await useApprovalOnce(gatehouse, binding, result, request, toolCall, signal);
    if (reason !== null)
      return { response: { type: 'tool-approval-response', approvalId, approved: false, reason }, answer };
  }
  return { response: { type: 'tool-approval-response', approvalId, approved: true }, answer };
}

/**
 * Answers the `tool-approval-request` parts of a step for tools made by `gatehouseTools`: waits for
 * each decision (in parallel), uses one-off approvals, and returns the tool message to append
 * before calling the model again — approved calls then run, the others reach the model as
 * `execution-denied` with the reason or steer instructions. Other approval requests are left alone.
 *
 * @example
 * const { message, answers } = await answerApprovals(gatehouse, result, tools);
 */
export async function answerApprovals(
  gatehouse: AdapterClient,
  result: { content: ReadonlyArray<{ type: string }> },
  tools: ToolSet,
  options: { signal?: AbortSignal } = {},
): Promise<{ message: ToolModelMessage | null; answers: ApprovalAnswer[] }> {
  const pending = result.content.filter(isApprovalRequest).flatMap((part) => {
    const tool = tools[part.toolCall.toolName];
    const binding = tool === undefined ? undefined : bindings.get(tool);
    return binding === undefined ? [] : [answerOne(gatehouse, part, binding, options.signal)];
  });
  const answered = await Promise.all(pending);
  if (answered.length === 0) return { message: null, answers: [] };
  return {
    message: { role: 'tool', content: answered.map(({ response }) => response) },
    answers: answered.map(({ answer }) => answer),
  };
}

function refusalOf(decision: GatehouseDecision, toolName: string): GatehouseRefusal {
  return {
    gatehouse: 'not_run',
    outcome: decision.outcome,
    gateId: decision.gateId,
    reason: decision.reason,
    instructions: decision.instructions,
    message: messageForModel(decision, toolName),
  };
}

/**
 * Wraps one tool's `execute` so each call waits for Gatehouse inside the tool loop (no second
 * model call needed): approved runs the tool with exactly the approved input; anything else
 * returns a `GatehouseRefusal` the model reads. For agents that cannot end a step to ask.
 *
 * @example
 * const tools = { delete_file: withGatehouseApproval(gatehouse, 'delete_file', deleteFile, { request: { runId } }) };
 */
export function withGatehouseApproval<INPUT, OUTPUT>(
  gatehouse: AdapterClient,
  toolName: string,
  tool: Tool<INPUT, OUTPUT>,
  options: Omit<GatehouseToolOptions, 'names'> = {},
): Tool<INPUT, OUTPUT | GatehouseRefusal> {
  const execute = tool.execute;
  if (execute === undefined)
    throw new TypeError(`tool ${toolName} has no execute function to put behind Gatehouse`);
  const binding: Binding = {
    toolName,
    options,
    announce: announceOnce(undefined),
    edits: new Map(),
    used: new Set(),
    allowed: new Set(),
  };
  const gatedExecute = async (input: INPUT, execution: ExecutionOptions) => {
    const request = await requestFor(binding, input, execution.toolCallId);
    const result = await gatehouse.request({
      ...request,
      signal: execution.abortSignal,
      onGate: (gateId) => options.onGate?.(gateId, toolName),
    });
    if (result.outcome !== 'approved') return refusalOf(decisionOf(result), toolName);
    const run = await approvedAction(result, { tool: toolName, args: request.args });
    await gatehouse.consume(result, run, { signal: execution.abortSignal });
    return execute((result.edited ? inputOf(run.args ?? {}, input) : input) as INPUT, execution);
  };
  return { ...tool, execute: gatedExecute } as Tool<INPUT, OUTPUT | GatehouseRefusal>;
}
