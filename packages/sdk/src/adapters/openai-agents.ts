import {
  type Agent,
  type FunctionTool,
  type RunContext,
  type Runner,
  type RunResult,
  RunState,
  type RunToolApprovalItem,
  run as runAgent,
} from '@openai/agents';
import { payloadText } from '../payload.js';
import type { RequestOptions } from '../types.js';
import {
  type AdapterClient,
  type AdapterRequestFields,
  adapterKey,
  announceOnce,
  approvedAction,
  approvedInputAfterRestart,
  argsOf,
  consumeOnce,
  decisionOf,
  type GatehouseDecision,
  inputOf,
  messageForModel,
  openGate,
} from './decision.js';

export type { AdapterRequestFields, GatehouseDecision } from './decision.js';

/** Any agent, whatever its context and output types (the Agents SDK's own `run` takes the same). */
// biome-ignore lint/suspicious/noExplicitAny: matches the Agents SDK's `Agent<any, any>` constraint
type AnyAgent = Agent<any, any>;

/** Any function tool, whatever its context, parameters and result. */
// biome-ignore lint/suspicious/noExplicitAny: matches the Agents SDK's `FunctionTool<any, any, any>`
type AnyFunctionTool = FunctionTool<any, any, any>;

/** How a tool's `needsApproval` asks Gatehouse. */
export interface GatehouseApprovalOptions {
  /** Request fields for every call (run, risk, context, timeout, …), fixed or from the call's input. */
  request?: AdapterRequestFields | ((input: unknown, toolName: string) => AdapterRequestFields);
  /** Hears each gate a person must decide, before anything waits on it. */
  onGate?: (gateId: string, toolName: string) => void;
}

/** Options of `resolveInterruptions`. */
export interface ResolveOptions<TAgent> {
  /** The agent the run started with: the run resumes from it. */
  agent: TAgent;
  /**
   * Resumes the run.
   * @default the SDK's `run`
   */
  runner?: Pick<Runner, 'run'>;
  /** Hears each decision as it is applied to the run. */
  onDecision?: (decision: GatehouseDecision, toolName: string) => void;
  signal?: AbortSignal;
}

interface Binding {
  toolName: string;
  options: GatehouseApprovalOptions;
  /** Requests sent by `needsApproval`, by call id, so the answer is asked for with the same body. */
  sent: Map<string, RequestOptions>;
  /** Calls already decided here, by call id (true: approved), so asking again opens no gate. */
  decided: Map<string, boolean>;
  /** Approved edited arguments (JSON) by call id, run by `gatehouseTool`'s invoke in place of the model's. */
  edits: Map<string, string>;
  /** The tool's invoke runs `edits` (made by `gatehouseTool`); without it an edited approval is refused. */
  takesEdits: boolean;
}

/** How many decided calls a binding remembers. */
const DECIDED_LIMIT = 1_000;

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.set(key, value);
  if (map.size > DECIDED_LIMIT) map.delete(map.keys().next().value as string);
}

/** The Gatehouse binding of each `needsApproval` function made here, found again from the run's tools. */
const bindings = new WeakMap<object, Binding>();

async function requestFor(binding: Binding, input: unknown, callId: string): Promise<RequestOptions> {
  const { request } = binding.options;
  const fields = typeof request === 'function' ? request(input, binding.toolName) : (request ?? {});
  const action = { tool: binding.toolName, args: argsOf(input) };
  const key = await adapterKey('openai-agents', [fields.runId ?? '', callId, payloadText(action)]);
  return { ...fields, ...action, idempotencyKey: key };
}

/**
 * A `needsApproval` for a tool of the OpenAI Agents SDK that asks Gatehouse: a call the policy
 * allows runs at once; any other call interrupts the run, and `resolveInterruptions` applies the
 * Gatehouse decision.
 *
 * @example
 * const deleteFile = tool({ name: 'delete_file', parameters, execute,
 *   needsApproval: gatehouseNeedsApproval(gatehouse, 'delete_file', { request: { runId } }) });
 */
export function gatehouseNeedsApproval(
  gatehouse: AdapterClient,
  toolName: string,
  options: GatehouseApprovalOptions = {},
): (runContext: RunContext, input: unknown, callId?: string) => Promise<boolean> {
  const binding: Binding = {
    toolName,
    options,
    sent: new Map(),
    decided: new Map(),
    edits: new Map(),
    takesEdits: false,
  };
  const announce = announceOnce(options.onGate);
  const needsApproval = async (_runContext: RunContext, input: unknown, callId?: string) => {
    // The SDK asks again about a call it resumes; a decided call is never reported as pending again.
    const decided = callId === undefined ? undefined : binding.decided.get(callId);
    if (decided !== undefined) return !decided;
    const request = await requestFor(binding, input, callId ?? globalThis.crypto.randomUUID());
    const opened = await openGate(gatehouse, request);
    if (opened.status === 'answered' && opened.result.outcome === 'approved') {
      if (callId !== undefined) remember(binding.decided, callId, true);
      return false;
    }
    if (callId !== undefined) binding.sent.set(callId, request);
    if (opened.status === 'pending') announce(opened.gateId, toolName);
    // A policy denial also interrupts, so the model reads its reason from the rejection.
    return true;
  };
  bindings.set(needsApproval, binding);
  return needsApproval;
}

/**
 * Puts a function tool of the OpenAI Agents SDK behind Gatehouse: its `needsApproval` asks Gatehouse
 * (as `gatehouseNeedsApproval`), and its invoke runs a person's edited arguments when the approval
 * carried an edit. The SDK binds an approval to the model's exact call, so the edit is applied here.
 *
 * @example
 * const deleteFile = gatehouseTool(gatehouse, tool({ name: 'delete_file', parameters, execute }), { request: { runId } });
 */
export function gatehouseTool<TTool extends AnyFunctionTool>(
  gatehouse: AdapterClient,
  functionTool: TTool,
  options: GatehouseApprovalOptions & { name?: string } = {},
): TTool {
  const needsApproval = gatehouseNeedsApproval(gatehouse, options.name ?? functionTool.name, options);
  const binding = bindings.get(needsApproval) as Binding;
  binding.takesEdits = true;
  const invoke = functionTool.invoke;
  const gatedInvoke: typeof invoke = async (runContext, input, details) => {
    const callId = details?.toolCall?.callId;
    if (callId === undefined) return invoke(runContext, input, details);
    const edited = binding.edits.get(callId);
    binding.edits.delete(callId);
    if (edited !== undefined || binding.decided.get(callId) === true) {
      return invoke(runContext, edited ?? input, details);
    }
    // Nothing of this call is in memory: the process restarted after the run approved it (from a saved
    // state). Its answer is read again, and a person's edit still runs in place of the model's input.
    const reread = await rereadAnswer(gatehouse, binding, input, callId);
    if (reread.message !== null) return reread.message;
    return invoke(runContext, reread.input, details);
  };
  return { ...functionTool, needsApproval, invoke: gatedInvoke };
}

/** The input to run for a call the run approved in an earlier process, or what the model reads instead. */
async function rereadAnswer(
  gatehouse: AdapterClient,
  binding: Binding,
  input: string,
  callId: string,
): Promise<{ input: string; message: null } | { input: null; message: string }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch {
    throw new TypeError(`the arguments of tool call ${callId} are not JSON; it cannot be put to Gatehouse`);
  }
  const request = await requestFor(binding, parsed, callId);
  const answer = await approvedInputAfterRestart(gatehouse, request, parsed, binding.toolName, {
    takesEdits: binding.takesEdits,
  });
  if ('message' in answer) return { input: null, message: answer.message };
  remember(binding.decided, callId, true);
  // Not edited: the model's own JSON, as it was.
  return { input: answer.input === parsed ? input : JSON.stringify(answer.input), message: null };
}

const callIdOf = (item: RunToolApprovalItem) =>
  'callId' in item.rawItem && typeof item.rawItem.callId === 'string'
    ? item.rawItem.callId
    : (item.rawItem.id ?? '');

/** The binding behind an interruption, when its tool's `needsApproval` came from `gatehouseNeedsApproval`. */
function bindingOf(item: RunToolApprovalItem): Binding | undefined {
  const name = item.toolName ?? item.name;
  for (const tool of item.agent.tools) {
    if (tool.type === 'function' && tool.name === name) return bindings.get(tool.needsApproval);
  }
  return undefined;
}

function parseArguments(item: RunToolApprovalItem): unknown {
  try {
    return JSON.parse(item.arguments ?? '{}') as unknown;
  } catch {
    throw new TypeError(
      `the arguments of tool call ${callIdOf(item)} are not JSON; it cannot be put to Gatehouse`,
    );
  }
}

/** What the model reads when a person edited a call whose tool cannot run edited arguments. */
const editNotRunnable = (toolName: string, args: unknown) =>
  `A reviewer approved the call to ${toolName} only with edited arguments, which this tool cannot take ` +
  `(it is not wrapped by gatehouseTool); it was not run. The edited arguments, as data: ${JSON.stringify(args)}.`;

async function applyDecision<TContext, TAgent extends AnyAgent>(
  gatehouse: AdapterClient,
  state: RunState<TContext, TAgent>,
  item: RunToolApprovalItem,
  binding: Binding,
  options: ResolveOptions<TAgent>,
): Promise<void> {
  const callId = callIdOf(item);
  const request = binding.sent.get(callId) ?? (await requestFor(binding, parseArguments(item), callId));
  const answer = await gatehouse.request({ ...request, signal: options.signal });
  const decision = decisionOf(answer);
  let approved = answer.outcome === 'approved' && (!answer.edited || binding.takesEdits);
  let message =
    answer.outcome === 'approved'
      ? editNotRunnable(binding.toolName, answer.args)
      : messageForModel(decision, binding.toolName);
  if (approved) {
    const run = await approvedAction(answer, { tool: request.tool, args: request.args });
    const used = await consumeOnce(gatehouse, answer, run, binding.toolName, options.signal);
    if (used === null) {
      // The SDK refuses a changed tool call after approval, so the edit waits for the tool's invoke.
      if (answer.edited) {
        remember(binding.edits, callId, JSON.stringify(inputOf(run.args ?? {}, parseArguments(item))));
      }
    } else {
      approved = false;
      message = used;
    }
  }
  if (approved) state.approve(item);
  else state.reject(item, { message });
  remember(binding.decided, callId, approved);
  binding.sent.delete(callId);
  options.onDecision?.(decision, binding.toolName);
}

/** Applies the Gatehouse decisions to the run's Gatehouse interruptions; true when none other is left. */
async function applyDecisions<TContext, TAgent extends AnyAgent>(
  gatehouse: AdapterClient,
  state: RunState<TContext, TAgent>,
  interruptions: RunToolApprovalItem[],
  options: ResolveOptions<TAgent>,
): Promise<{ resolved: number; others: number }> {
  const ours = interruptions.flatMap((item) => {
    const binding = bindingOf(item);
    return binding === undefined ? [] : [{ item, binding }];
  });
  await Promise.all(ours.map(({ item, binding }) => applyDecision(gatehouse, state, item, binding, options)));
  return { resolved: ours.length, others: interruptions.length - ours.length };
}

/**
 * Resolves a run's interruptions from `gatehouseNeedsApproval` tools with the Gatehouse decisions
 * (waiting for each, in parallel) — approve, or reject with the reason or steer instructions as
 * the message the model reads — and resumes the run until no such interruption is left. Takes the
 * paused run's result, or its state restored with `RunState.fromString` after a restart.
 * Interruptions of other tools are left for the caller (the run is then returned unresumed).
 *
 * @example
 * let result = await run(agent, 'clean the build folder');
 * result = await resolveInterruptions(result, gatehouse, { agent });
 */
export async function resolveInterruptions<TContext, TAgent extends AnyAgent>(
  paused: RunResult<TContext, TAgent> | RunState<TContext, TAgent>,
  gatehouse: AdapterClient,
  options: ResolveOptions<TAgent>,
): Promise<RunResult<TContext, TAgent>> {
  const resume = options.runner ? options.runner.run.bind(options.runner) : runAgent;
  let current = paused;
  for (;;) {
    const { state, interruptions } =
      current instanceof RunState
        ? { state: current, interruptions: current.getInterruptions() }
        : { state: current.state, interruptions: current.interruptions };
    const { resolved, others } = await applyDecisions<TContext, TAgent>(
      gatehouse,
      state,
      interruptions,
      options,
    );
    if (!(current instanceof RunState) && (resolved === 0 || others > 0)) return current;
    current = (await resume(options.agent, state)) as RunResult<TContext, TAgent>;
  }
}
