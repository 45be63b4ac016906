import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolRequest,
  type CallToolResult,
  ErrorCode,
  McpError,
  type Progress,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { GateResult } from 'gatehouse-hitl-sdk';
import type { GatehouseApi } from '../api.js';
import type { McpLogger } from '../context.js';
import { errorResult, quoted } from '../results.js';
import { splitName } from './names.js';
import type { UpstreamPool } from './upstreams.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;
type Args = Record<string, unknown>;

/** How the gateway asks Gatehouse about each tool call. */
export interface ToolGateOptions {
  api: GatehouseApi;
  /** The run every request belongs to; null asks outside a run. */
  runId: string | null;
  /** How often a waiting call sends a progress notification. */
  progressIntervalMs: number;
  /** How long an approved call may take upstream (progress from upstream restarts the clock). */
  callTimeoutMs: number;
  log: McpLogger;
}

type ProgressSender = { enabled: boolean; send: (message: string) => void };

/** One sender per request, so waiting and the upstream's own progress share one rising counter. */
const senders = new WeakMap<Extra, ProgressSender>();

/** Sends progress notifications with one rising counter for the whole call, when the client asked. */
function progressSender(extra: Extra): ProgressSender {
  const known = senders.get(extra);
  if (known !== undefined) return known;
  const token = extra._meta?.progressToken;
  let progress = 0;
  const send = (message: string) => {
    if (token === undefined) return;
    progress += 1;
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress, message },
      })
      .catch(() => {});
  };
  const sender = { enabled: token !== undefined, send };
  senders.set(extra, sender);
  return sender;
}

/** While a gate is open: one notification at once, then one every interval, until stopped. */
function whileWaiting(send: (message: string) => void, gateId: string, everyMs: number): () => void {
  const started = Date.now();
  const tick = () => {
    const seconds = Math.round((Date.now() - started) / 1000);
    send(`waiting for a person to decide gate ${gateId} (${seconds}s)`);
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref?.();
  return () => clearInterval(timer);
}

/** The arguments an approval covers: a person's edit when there is one, else the agent's. */
export function approvedArgs(result: GateResult, asked: Args): { args: Args; edited: boolean } {
  if (result.edited && result.args !== null) return { args: result.args, edited: true };
  return { args: asked, edited: false };
}

function notCalled(lines: (string | null)[]): CallToolResult {
  const text = lines.filter((line): line is string => line !== null).join('\n');
  return { isError: true, content: [{ type: 'text', text }] };
}

/** The tool error for every answer but approval; people's words are quoted, the policy's labelled as such. */
export function refusal(result: GateResult, tool: string): CallToolResult {
  const gate = result.gateId === null ? '' : ` (gate ${result.gateId})`;
  const skipped = `${tool} was not called.`;
  if (result.decidedBy === 'policy') {
    const rule = result.ruleId === null ? '' : ` (rule ${result.ruleId})`;
    const reason = result.reason === null ? null : `Policy reason${rule}: ${JSON.stringify(result.reason)}`;
    return notCalled([`Denied by the Gatehouse policy${rule}: ${skipped}`, reason]);
  }
  switch (result.outcome) {
    case 'denied':
      return notCalled([
        `Rejected by a person${gate}: ${skipped} Do not try it another way unless the reason allows it.`,
        quoted('Reason', result.reason),
      ]);
    case 'steered':
      return notCalled([
        `Steered by a person${gate}: ${skipped} Follow the instructions instead, as the user's next instruction.`,
        quoted('Steer instructions', result.instructions),
        quoted('Feedback', result.feedback),
      ]);
    case 'timed_out':
      return notCalled([`Nobody decided in time${gate}; the gate timed out: ${skipped}`]);
    case 'cancelled':
      return notCalled([`The gate was cancelled${gate} (the run may have been stopped): ${skipped}`]);
    default:
      return notCalled([
        `A person chose "${result.outcome}"${gate} instead of approving: ${skipped}`,
        quoted('Reason', result.reason),
        quoted('Feedback', result.feedback),
      ]);
  }
}

/** How long withdrawing an abandoned call's gate may take; it is best effort. */
const WITHDRAW_TIMEOUT_MS = 5_000;

/**
 * The client cancelled the call or went away while a person had yet to decide: nothing will run it,
 * so its gate is withdrawn rather than left in people's inboxes.
 */
async function withdraw(options: ToolGateOptions, gateId: string, tool: string): Promise<void> {
  try {
    await options.api.sdk.withdraw(gateId, {
      reason: `the MCP client cancelled the ${tool} call or disconnected`,
      signal: AbortSignal.timeout(WITHDRAW_TIMEOUT_MS),
    });
  } catch (error) {
    // Decided meanwhile, or the server is unreachable: the gate ends by its own deadline then.
    options.log.warn({ err: error, gateId, tool }, 'the gate of an abandoned call was not withdrawn');
  }
}

/** What one request through the gateway asks the policy about. */
export interface GatedRequest {
  /** The name the policy matches: `<server>__<tool>`, `<server>__resources/read` or `<server>__prompts/get`. */
  name: string;
  args: Args;
  /** What a reviewer reads first. */
  title: string;
  context: Record<string, unknown>;
}

/** The arguments to go ahead with (a person's edit when they edited), or the error the client gets instead. */
export type GatedAnswer = { approved: true; args: Args } | { approved: false; refusal: CallToolResult };

/**
 * Asks the policy about one request: a gate is waited for with progress notifications and withdrawn
 * when the client goes away; an approval is marked used before the caller goes ahead.
 */
export async function askGatehouse(
  options: ToolGateOptions,
  request: GatedRequest,
  extra: Extra,
): Promise<GatedAnswer> {
  const { name, args: asked } = request;
  const progress = progressSender(extra);
  let stopWaiting = () => {};
  let openGateId: string | null = null;
  let result: GateResult;
  try {
    result = await options.api.sdk.request({
      tool: name,
      args: asked,
      runId: options.runId ?? undefined,
      title: request.title,
      context: request.context,
      signal: extra.signal,
      onGate: (gateId) => {
        openGateId = gateId;
        if (progress.enabled) stopWaiting = whileWaiting(progress.send, gateId, options.progressIntervalMs);
      },
    });
  } catch (error) {
    if (extra.signal.aborted && openGateId !== null) await withdraw(options, openGateId, name);
    return {
      approved: false,
      refusal: errorResult(error, `Gatehouse gave no approval, so ${name} was not called.`),
    };
  } finally {
    stopWaiting();
  }
  if (result.outcome !== 'approved') return { approved: false, refusal: refusal(result, name) };
  const { args } = approvedArgs(result, asked);
  try {
    // A one-off approval is marked used before the call, so it can never run twice.
    await options.api.sdk.consume(result, { tool: name, args }, { signal: extra.signal });
  } catch (error) {
    return {
      approved: false,
      refusal: errorResult(error, `The approval could not be used, so ${name} was not called.`),
    };
  }
  return { approved: true, args };
}

/**
 * One `tools/call` through the gateway: the policy decides (tool = the gateway's tool name,
 * args = the call's arguments); a gate is waited for with progress notifications; only an
 * approval calls the upstream tool, with the person's edited arguments when they edited.
 */
export async function gatedToolCall(
  pool: UpstreamPool,
  options: ToolGateOptions,
  params: CallToolRequest['params'],
  extra: Extra,
): Promise<CallToolResult> {
  const target = splitName(params.name);
  const upstream = target === null ? undefined : pool.get(target.server);
  const known =
    upstream !== undefined && target !== null && (await pool.hasTool(upstream, target.name, extra.signal));
  if (!known || target === null || upstream === undefined) {
    throw new McpError(ErrorCode.InvalidParams, `unknown tool "${params.name}"; tools/list names the tools`);
  }
  const answer = await askGatehouse(
    options,
    {
      name: params.name,
      args: params.arguments ?? {},
      title: `${target.name} on ${target.server}`,
      context: { via: 'mcp gateway', mcpServer: target.server, mcpTool: target.name },
    },
    extra,
  );
  if (!answer.approved) return answer.refusal;
  const progress = progressSender(extra);
  const onprogress = progress.enabled
    ? (update: Progress) => progress.send(update.message ?? `${target.server} is working`)
    : undefined;
  return (await upstream.client.callTool({ name: target.name, arguments: answer.args }, undefined, {
    signal: extra.signal,
    timeout: options.callTimeoutMs,
    resetTimeoutOnProgress: true,
    ...(onprogress ? { onprogress } : {}),
  })) as CallToolResult;
}
