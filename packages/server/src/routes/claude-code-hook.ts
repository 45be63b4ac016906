import { createHash } from 'node:crypto';
import { type Gate, GatehouseError, isGatehouseError } from 'gatehouse-hitl-core';
import type { ClaudeCodeHookQuery, FindingDocument } from 'gatehouse-hitl-protocol';
import {
  allowedByPolicy,
  analysisPending,
  analysisRefused,
  approvalUsed,
  approved,
  askPerson,
  type CallFacts,
  CLAUDE_CODE_EDIT_TOOLS,
  type ClaudeCodeToolCall,
  claudeCodeCallContext,
  claudeCodeCallText,
  claudeCodeRequestFields,
  deferred,
  deniedByPolicy,
  ended,
  failClosed,
  type GateView,
  type PreToolUseOutput,
  pending,
  refusalAnswer,
  runSteered,
  steered,
  steerInstructions,
  stringEditsOf,
  summariseFindings,
} from 'gatehouse-hitl-protocol/rules';
import type { Principal } from '../http/principal.js';
import type { PendingCalls } from '../services/gates/pending-calls.js';
import type { Services } from '../services/index.js';

/** One Claude Code tool call the HTTP hook decides. */
export interface HookCall {
  agent: Extract<Principal, { kind: 'agent' }>;
  input: ClaudeCodeToolCall;
  runId: string | null;
  query: ClaudeCodeHookQuery;
  /** Where people find the inbox, for the words of a pending answer. */
  inboxUrl: string;
  /** Aborts when Claude Code gives up on the request. */
  signal: AbortSignal;
  /**
   * False for Claude Code's own permission prompt: Claude Code asks because the person's rules say so,
   * and only a person's decision (or a denial) may answer for them, not a policy that lets the call through.
   */
  policyAllowAnswers: boolean;
  /** Calls answered while their gate was open, so the identical retry gets the gate's end. */
  pendingCalls: PendingCalls;
}

/** The context key that finds a pending call's gate again when Claude Code retries it. */
const CALL_KEY = 'claude_code_call';

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function callKeyOf(call: HookCall): string {
  return sha256(claudeCodeCallText(call.input, call.runId)).slice(0, 32);
}

function viewOf(gate: Gate): GateView {
  return gate as unknown as GateView;
}

/** Holds a pending gate until it ends, the budget runs out or Claude Code hangs up. */
async function settle(services: Services, call: HookCall, gate: Gate, budgetMs: number): Promise<Gate> {
  if (gate.status !== 'pending' || budgetMs <= 0 || call.signal.aborted) return gate;
  return services.gates.wait(call.agent, gate.id, budgetMs, call.signal);
}

/** What a gate that is still open becomes, by the hook's mode. */
function stillOpen(call: HookCall, facts: CallFacts, gate: Gate, reason: string): PreToolUseOutput {
  if (call.query.mode === 'ask') return askPerson(facts, gate.id, reason);
  if (call.query.mode === 'defer') return deferred(facts, gate.id, reason);
  return call.query.atBudget === 'ask' ? askPerson(facts, gate.id, reason) : pending(facts, gate.id, reason);
}

function budgetOf(call: HookCall): number {
  return call.query.mode === 'wait' ? call.query.waitMs : 0;
}

/** An approved gate: used once for exactly this call (or the person's edited arguments). */
async function useApproval(services: Services, call: HookCall, facts: CallFacts, gate: Gate) {
  const bound = gate.decision?.payloadHash ?? gate.payloadHash;
  if (bound === null) return failClosed(facts, 'Gatehouse approved no particular action', 'Retry the call.');
  try {
    await services.gates.consume(call.agent, gate.id, bound);
  } catch (error) {
    if (isGatehouseError(error) && error.code === 'APPROVAL_USED') return approvalUsed(facts, gate.id);
    throw error;
  }
  return approved(facts, viewOf(gate));
}

async function answerForGate(
  services: Services,
  call: HookCall,
  gate: Gate,
  reason: string,
): Promise<PreToolUseOutput> {
  const facts: CallFacts = { tool: call.input.toolName, url: call.inboxUrl };
  const settled = await settle(services, call, gate, budgetOf(call));
  const { pendingCalls, agent } = call;
  const key = callKeyOf(call);
  if (settled.status === 'pending') {
    await pendingCalls.remember(agent.id, key, settled.id);
    return stillOpen(call, facts, settled, reason);
  }
  await pendingCalls.forget(agent.id, key);
  if (settled.status === 'approved') return useApproval(services, call, facts, settled);
  return settled.status === 'steered' ? steered(facts, viewOf(settled)) : ended(facts, viewOf(settled));
}

/** An edit's change as the hook input shows it: the server never reads the agent's files. */
function changeOf(input: ClaudeCodeToolCall): { path: string; before: string | null; after: string } | null {
  const path = input.toolInput.file_path;
  if (typeof path !== 'string' || path === '') return null;
  if (input.toolName === 'Write') {
    const content = input.toolInput.content;
    return typeof content === 'string' ? { path, before: null, after: content } : null;
  }
  const edits = stringEditsOf(input.toolName, input.toolInput);
  if (edits === null) return null;
  return {
    path,
    before: edits.map((edit) => edit.oldString).join('\n'),
    after: edits.map((edit) => edit.newString).join('\n'),
  };
}

/** Change analysis of an Edit, Write or MultiEdit in a run; null when it holds nothing back. */
async function analyseEdit(services: Services, call: HookCall): Promise<PreToolUseOutput | null> {
  const { input } = call;
  if (call.runId === null || !CLAUDE_CODE_EDIT_TOOLS.has(input.toolName)) return null;
  const change = changeOf(input);
  if (change === null || change.before === change.after) return null;
  const result = await services.analysis.analyze(call.agent, {
    runId: call.runId,
    files: [change],
    action: { tool: input.toolName, args: input.toolInput },
  });
  const open = result.gates.filter((gate) => gate.status !== 'approved');
  if (open.length === 0) return null;
  const facts: CallFacts = { tool: input.toolName, url: call.inboxUrl };
  const summary = summariseFindings(result.findings as unknown as FindingDocument[]);
  const settled: Gate[] = [];
  for (const gate of open) settled.push(await settle(services, call, gate, budgetOf(call)));
  const refused = settled.find((gate) => gate.status !== 'pending' && gate.status !== 'approved');
  if (refused !== undefined) return analysisRefused(facts, viewOf(refused), summary);
  const waiting = settled.filter((gate) => gate.status === 'pending');
  if (waiting.length === 0) return null;
  const first = waiting[0] as Gate;
  if (call.query.mode !== 'wait' || call.query.atBudget === 'ask') {
    return stillOpen(call, facts, first, `change analysis: ${summary.split('\n')[0] ?? ''}`);
  }
  return analysisPending(facts, waiting.map(viewOf), summary);
}

async function requestDecision(services: Services, call: HookCall): Promise<PreToolUseOutput> {
  const { input } = call;
  const facts: CallFacts = { tool: input.toolName, url: call.inboxUrl };
  const key = callKeyOf(call);
  const attempt = (input.toolUseId ?? `${Date.now()}-${Math.random()}`).replace(/[^\x21-\x7e]/g, '_');
  const { event, context } = claudeCodeRequestFields(input);
  const answer = await services.gates.request(
    call.agent,
    {
      tool: input.toolName,
      args: input.toolInput,
      ...(event === undefined ? {} : { event }),
      context: { ...claudeCodeCallContext(input), ...context, [CALL_KEY]: key },
      ...(call.runId === null ? {} : { runId: call.runId }),
      idempotencyKey: `claude-code-http-${key}-${attempt}`.slice(0, 200),
    },
    // A retry of the call (Claude Code gives it a new id) finds the gate its first attempt opened,
    // and the gate an earlier answer left open even after a person ended it.
    {
      sameRequestAs: (gate) => gate.context[CALL_KEY] === key,
      rememberedGate: (tx) => call.pendingCalls.find(tx, call.agent.id, key),
    },
  );
  const steers = steerInstructions(answer.interventions);
  if (answer.outcome === 'gated' && answer.gate !== null) {
    if (steers.length > 0) return runSteered(facts, steers);
    return answerForGate(services, call, answer.gate, answer.reason);
  }
  if (steers.length > 0) return runSteered(facts, steers);
  if (answer.outcome === 'allowed' && !call.policyAllowAnswers) {
    return askPerson(facts, 'none', `the policy allows it (${answer.reason}); the person decides here`);
  }
  return answer.outcome === 'allowed'
    ? allowedByPolicy(facts, answer.ruleId, answer.reason)
    : deniedByPolicy(facts, answer.ruleId, answer.reason);
}

/**
 * Decides one Claude Code tool call over HTTP as the command hook does: change analysis for edits
 * in a run, then the policy and, when a gate opens, the hook's mode. Every failure is a denial.
 */
export async function decideClaudeCodeCall(services: Services, call: HookCall): Promise<PreToolUseOutput> {
  try {
    return (await analyseEdit(services, call)) ?? (await requestDecision(services, call));
  } catch (error) {
    return hookFailure(call, error);
  }
}

/** A failure as a denial: Claude Code lets a call through on any HTTP error, so none is sent. */
export function hookFailure(
  call: Pick<HookCall, 'input' | 'runId' | 'query' | 'inboxUrl'>,
  error: unknown,
): PreToolUseOutput {
  const facts: CallFacts = { tool: call.input.toolName, url: call.inboxUrl };
  const refusal = isGatehouseError(error)
    ? error
    : new GatehouseError('INTERNAL', error instanceof Error ? error.message : String(error));
  return refusalAnswer(facts, refusal, {
    url: call.inboxUrl,
    runId: call.runId,
    budgetMs: call.query.waitMs,
  });
}
