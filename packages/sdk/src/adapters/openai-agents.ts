import {
  type Agent,
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
  argsOf,
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
  const binding: Binding = { toolName, options, sent: new Map() };
  const announce = announceOnce(options.onGate);
  const needsApproval = async (_runContext: RunContext, input: unknown, callId?: string) => {
    const request = await requestFor(binding, input, callId ?? globalThis.crypto.randomUUID());
    const opened = await openGate(gatehouse, request);
    if (opened.status === 'answered' && opened.result.outcome === 'approved') return false;
    if (callId !== undefined) binding.sent.set(callId, request);
    if (opened.status === 'pending') announce(opened.gateId, toolName);
    // A policy denial also interrupts, so the model reads its reason from the rejection.
    return true;
  };
  bindings.set(needsApproval, binding);
  return needsApproval;
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

function setArguments(item: RunToolApprovalItem, input: unknown): void {
  const raw = item.rawItem as { arguments?: unknown };
  if (typeof raw.arguments !== 'string') {
    throw new TypeError(`tool call ${callIdOf(item)} cannot take edited arguments`);
  }
  raw.arguments = JSON.stringify(input);
}

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
  if (answer.outcome === 'approved') {
    const run = await approvedAction(answer, { tool: request.tool, args: request.args });
    await gatehouse.consume(answer, run, options.signal ? { signal: options.signal } : {});
    // The approval item holds the very tool call the SDK runs, so a person's edit becomes its arguments.
    if (answer.edited) setArguments(item, inputOf(run.args ?? {}, parseArguments(item)));
    state.approve(item);
  } else {
    state.reject(item, { message: messageForModel(decision, binding.toolName) });
  }
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
