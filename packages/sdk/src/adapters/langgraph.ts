import { Command, getConfig, interrupt } from '@langchain/langgraph';
import { payloadHash } from '../payload.js';
import type { ActionSpec, RequestOptions } from '../types.js';
import {
  type AdapterClient,
  type AdapterRequestFields,
  adapterKey,
  approvedAction,
  decisionOf,
  type GatehouseDecision,
  openGate,
} from './decision.js';

export type { AdapterRequestFields, GatehouseDecision } from './decision.js';

/** An action to ask about from a graph node, with the request fields to send along. */
export type ApprovalRequest = ActionSpec & AdapterRequestFields;

/** The value a node interrupts with while a person decides; `resumeWithDecision` finds gates by it. */
export interface GatehouseInterrupt {
  gatehouse: 'approval';
  gateId: string;
  tool: string | null;
  operation: string | null;
  title: string | null;
}

/** The parts of a node's runnable config that name its thread and task. */
export interface NodeConfig {
  configurable?: Record<string, unknown> | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** Options of `requestApproval`. */
export interface RequestApprovalOptions {
  /**
   * The node's config, where `AsyncLocalStorage` is missing (browsers).
   * @default the running node's config (`getConfig()`)
   */
  config?: NodeConfig;
  /**
   * Idempotency key of the request; the same key finds the same gate when the node runs again on resume.
   * @default derived from the thread, the task and the action
   */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

/** The key a node's request is sent with: the same on every re-run of the task, new for another task. */
async function nodeKey(
  action: ActionSpec,
  fields: AdapterRequestFields,
  given?: NodeConfig,
): Promise<string> {
  const config: NodeConfig | undefined = given ?? getConfig();
  const thread = config?.configurable?.thread_id;
  const task = config?.configurable?.checkpoint_ns ?? config?.metadata?.langgraph_checkpoint_ns;
  if (thread === undefined || task === undefined) {
    throw new TypeError(
      'requestApproval runs inside a graph node with a checkpointer and a thread_id; elsewhere pass options.idempotencyKey',
    );
  }
  return adapterKey('langgraph', [
    String(thread),
    String(task),
    fields.runId ?? '',
    await payloadHash(action),
  ]);
}

const isGatehouseInterrupt = (value: unknown): value is GatehouseInterrupt =>
  value !== null && typeof value === 'object' && (value as { gatehouse?: unknown }).gatehouse === 'approval';

/**
 * Asks Gatehouse from inside a graph node: the policy's answer comes back at once; a gate pauses
 * the graph with `interrupt()` (needs a checkpointer) until `resumeWithDecision` resumes it, and
 * then the decision is read from the server (never from the resume value) and a one-off approval
 * is used for exactly this action. When a person edited the arguments (LangChain's HITL "edit"),
 * `decision.edited` is true and `decision.args` holds what to run. Call it once per node, as the
 * node's last interrupt.
 *
 * @example
 * const decision = await requestApproval(gatehouse, { tool: 'delete_file', args: { path }, runId });
 * if (decision.outcome === 'approved') await rm(String(decision.args?.path), { recursive: true });
 */
export async function requestApproval(
  gatehouse: AdapterClient,
  request: ApprovalRequest,
  options: RequestApprovalOptions = {},
): Promise<GatehouseDecision> {
  const { tool, operation, args = {}, ...fields } = request;
  const action: ActionSpec = { tool, operation, args };
  const idempotencyKey = options.idempotencyKey ?? (await nodeKey(action, fields, options.config));
  const sent: RequestOptions = { ...fields, ...action, idempotencyKey, signal: options.signal };
  const opened = await openGate(gatehouse, sent);
  if (opened.status === 'answered') return decisionOf(opened.result);
  const paused: GatehouseInterrupt = {
    gatehouse: 'approval',
    gateId: opened.gateId,
    tool: tool ?? null,
    operation: operation ?? null,
    title: fields.title ?? null,
  };
  interrupt(paused);
  const result = await gatehouse.waitForGate(opened.gateId, { signal: options.signal });
  if (result.outcome === 'approved') {
    // Like a LangChain HITL "edit" decision: the node runs `decision.args`, a person's edit when there is one.
    const run = await approvedAction(result, action);
    await gatehouse.consume(result, run, options.signal ? { signal: options.signal } : {});
  }
  return decisionOf(result);
}

/**
 * A graph node that asks Gatehouse about the action `action(state)` names and writes the
 * decision into the state.
 *
 * @example
 * graph.addNode('approve', gatehouseApprovalNode(gatehouse, {
 *   action: (state) => ({ tool: 'delete_file', args: { path: state.path }, runId: state.runId }),
 * }));
 */
export function gatehouseApprovalNode<S, U = { approval: GatehouseDecision }>(
  gatehouse: AdapterClient,
  options: {
    action: (state: S) => ApprovalRequest | Promise<ApprovalRequest>;
    /** @default `{ approval: decision }` */
    update?: (decision: GatehouseDecision, state: S) => U;
  },
): (state: S) => Promise<U> {
  const update = options.update ?? ((decision: GatehouseDecision) => ({ approval: decision }) as U);
  return async (state) => update(await requestApproval(gatehouse, await options.action(state)), state);
}

/** What `resumeWithDecision` needs from a compiled graph. */
export interface ResumableGraph<C, R> {
  invoke(input: Command<unknown, never, never>, config: C): Promise<R>;
  getState(
    config: C,
  ): Promise<{ tasks: ReadonlyArray<{ interrupts: ReadonlyArray<{ id?: string; value?: unknown }> }> }>;
}

/** The Gatehouse gates a paused graph waits on, with the ids of their interrupts. */
export async function pendingGates<C>(
  graph: Pick<ResumableGraph<C, unknown>, 'getState'>,
  config: C,
): Promise<Array<{ interruptId: string | null; gateId: string }>> {
  const snapshot = await graph.getState(config);
  return snapshot.tasks.flatMap((task) =>
    task.interrupts.flatMap((pending) =>
      isGatehouseInterrupt(pending.value)
        ? [{ interruptId: pending.id ?? null, gateId: pending.value.gateId }]
        : [],
    ),
  );
}

/**
 * Waits for the decision on the graph's pending gate (or each of them, or `gateId` alone) and
 * resumes the graph with `Command({ resume })`; the node then reads the decision from the server.
 *
 * @example
 * let state = await graph.invoke({ path: 'build/' }, config);
 * state = await resumeWithDecision(graph, config, gatehouse);
 */
export async function resumeWithDecision<C, R>(
  graph: ResumableGraph<C, R>,
  config: C,
  gatehouse: AdapterClient,
  gateId?: string,
  options: { signal?: AbortSignal } = {},
): Promise<R> {
  const pending = await pendingGates(graph, config);
  const chosen = gateId === undefined ? pending : pending.filter((gate) => gate.gateId === gateId);
  if (chosen.length === 0) {
    throw new TypeError(
      `the graph is not waiting on ${gateId === undefined ? 'a Gatehouse gate' : `gate ${gateId}`}`,
    );
  }
  const decided = await Promise.all(
    chosen.map(async (gate) => ({
      ...gate,
      decision: decisionOf(await gatehouse.waitForGate(gate.gateId, { signal: options.signal })),
    })),
  );
  const [only] = decided;
  if (decided.length === 1 && pending.length === 1 && only !== undefined) {
    return graph.invoke(new Command<unknown, never, never>({ resume: only.decision }), config);
  }
  const byInterrupt = Object.fromEntries(decided.map((gate) => [gate.interruptId ?? '', gate.decision]));
  return graph.invoke(new Command<unknown, never, never>({ resume: byInterrupt }), config);
}
