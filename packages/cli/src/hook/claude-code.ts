import {
  type ClaudeCodeToolCall,
  canonicalJson,
  claudeCodeCallContext,
  claudeCodeCallText,
  claudeCodeRequestFields,
  lightRoutes,
  parseClaudeCodeHookInput,
  steerInstructions as steersOf,
} from 'gatehouse-hitl-protocol/rules';
import {
  allowedByPolicy,
  approvalUsed,
  approved,
  type CallFacts,
  deniedByPolicy,
  ended,
  failClosed,
  failureAnswer,
  type GateView,
  type PreToolUseOutput,
  pending,
  runSteered,
  steered,
} from './answers.js';
import { analyzeEdit } from './edit-analysis.js';
import { createHookHttp, type HookHttp, OutOfTime, ServerRefused } from './hook-http.js';
import { createLedger, fingerprint, type Ledger } from './ledger.js';

/** The fields of Claude Code's `PreToolUse` hook input that Gatehouse uses (it sends more; they are ignored). */
export type PreToolUseInput = ClaudeCodeToolCall;

/** What the hook input says: a tool call to decide, another event to ignore, or input that is unusable. */
export type HookInput =
  | { kind: 'pre_tool_use'; input: PreToolUseInput }
  | { kind: 'other'; event: string }
  | { kind: 'invalid'; reason: string };

/** How the hook reaches Gatehouse and how long it may take. */
export interface HookSettings {
  url: string;
  /** An agent token; without one every call is denied. */
  token: string | null;
  runId: string | null;
  /** Time from process start to the answer, kept under Claude Code's hook timeout. */
  budgetMs: number;
  /** Where pending calls are remembered between runs. */
  stateDir: string;
}

/** Where the hook reads its input and writes its answer. */
export interface HookIo {
  stdin: NodeJS.ReadableStream & { destroy?(): unknown };
  /** Reads the whole input another way than through `stdin`, when given. */
  readInput?(signal: AbortSignal): Promise<string>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

interface RequestAnswer {
  outcome: 'allowed' | 'denied' | 'gated';
  gate: GateView | null;
  gateId: string | null;
  ruleId: string | null;
  reason: string;
  payloadHash: string;
  interventions: { kind: string; instruction: string | null }[];
}

interface Result {
  code: number;
  output: PreToolUseOutput | null;
  stderr?: string;
}

/** Time kept back for writing the answer after the last network call gives up. */
const ANSWER_MARGIN_MS = 250;
/** A long-poll shorter than this is not worth starting. */
const MIN_WAIT_MS = 100;
const MAX_WAIT_MS = 60_000;

/** Lowercase hex SHA-256, with node:crypto loaded only on the paths that bind an approval. */
async function sha256(text: string): Promise<string> {
  const { createHash } = await import('node:crypto');
  return createHash('sha256').update(text).digest('hex');
}

function readAll(stream: HookIo['stdin'], signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      text += chunk;
    });
    stream.on('end', () => resolve(text));
    stream.on('error', reject);
    signal.addEventListener(
      'abort',
      () => {
        stream.destroy?.();
        reject(new OutOfTime('the hook input did not arrive in time'));
      },
      { once: true },
    );
  });
}

/** Reads the JSON Claude Code writes to a hook's stdin; the command hook answers `PreToolUse` only. */
export function parseHookInput(text: string): HookInput {
  const parsed = parseClaudeCodeHookInput(text);
  switch (parsed.kind) {
    case 'pre_tool_use':
      return { kind: 'pre_tool_use', input: parsed.input };
    case 'permission_request':
      return { kind: 'other', event: 'PermissionRequest' };
    case 'invalid':
      return { kind: 'invalid', reason: parsed.reason };
    default:
      return parsed;
  }
}

function contextOf(input: PreToolUseInput): Record<string, unknown> {
  return { ...claudeCodeCallContext(input), ...claudeCodeRequestFields(input).context };
}

function steerInstructions(answer: RequestAnswer): string[] {
  return steersOf(answer.interventions);
}

interface Asking {
  input: PreToolUseInput;
  settings: HookSettings;
  http: HookHttp;
  ledger: Ledger;
  call: CallFacts;
  timeLeft(): number;
}

/** Long-polls the gate until it ends or the budget runs out; a pending gate comes back as it is. */
async function settle(asking: Asking, gate: GateView): Promise<GateView> {
  let current = gate;
  while (current.status === 'pending') {
    const wait = Math.min(MAX_WAIT_MS, Math.floor(asking.timeLeft() - MIN_WAIT_MS));
    if (wait < MIN_WAIT_MS) return current;
    try {
      const waited = await asking.http.route<{ gate: GateView }>(lightRoutes.gates.wait, {
        params: { id: current.id },
        query: { timeoutMs: wait },
      });
      current = waited.gate;
    } catch (error) {
      if (error instanceof OutOfTime) return current;
      throw error;
    }
  }
  return current;
}

/** Uses a one-off approval for exactly this call; false when an earlier identical call used it. */
async function useApproval(asking: Asking, gateId: string, payloadHash: string): Promise<boolean> {
  try {
    await asking.http.route(lightRoutes.gateActions.consume, {
      params: { id: gateId },
      body: { payloadHash },
    });
    return true;
  } catch (error) {
    if (error instanceof ServerRefused && error.code === 'APPROVAL_USED') return false;
    throw error;
  }
}

interface Sent {
  callId: string;
  key: string;
  context: Record<string, unknown>;
  /** A ledger entry was there before this run. */
  remembered: boolean;
}

async function answerForGate(asking: Asking, answer: RequestAnswer, sent: Sent): Promise<PreToolUseOutput> {
  const { call, ledger, input } = asking;
  const gate = await settle(asking, answer.gate as GateView);
  const steers = steerInstructions(answer);
  if (gate.status === 'pending') {
    ledger.write(sent.callId, {
      key: sent.key,
      context: sent.context,
      gateId: gate.id,
      createdAt: Date.now(),
    });
    return steers.length > 0 ? runSteered(call, steers) : pending(call, gate.id, answer.reason);
  }
  if (gate.status !== 'approved') {
    ledger.remove(sent.callId);
    return gate.status === 'steered' ? steered(call, gate) : ended(call, gate);
  }
  // The run was steered meanwhile: the approval stays unused, so the retry can still use it.
  if (steers.length > 0) return runSteered(call, steers);
  // The approval binds to this exact tool and arguments; the server checks the hash again.
  const payloadHash = await sha256(
    canonicalJson({ tool: input.toolName, operation: null, args: input.toolInput }),
  );
  if (answer.payloadHash !== payloadHash) {
    ledger.remove(sent.callId);
    return failClosed(call, 'Gatehouse answered for a different action', 'Retry the same call.');
  }
  const used = await useApproval(asking, gate.id, payloadHash);
  ledger.remove(sent.callId);
  return used ? approved(call, gate) : approvalUsed(call, gate.id);
}

/** What this call sends: the remembered request when it is a retry, else a new key and context. */
function requestFor(asking: Asking): Sent {
  const { input, settings, ledger } = asking;
  const callId = fingerprint(claudeCodeCallText(input, settings.runId));
  const earlier = ledger.read(callId);
  if (earlier !== null) return { callId, key: earlier.key, context: earlier.context, remembered: true };
  const attempt = (input.toolUseId ?? `${process.pid}-${Date.now()}-${Math.random()}`).replace(
    /[^\x21-\x7e]/g,
    '_',
  );
  return {
    callId,
    key: `claude-code-${callId}-${attempt}`.slice(0, 200),
    context: contextOf(input),
    remembered: false,
  };
}

async function ask(asking: Asking): Promise<PreToolUseOutput> {
  const { input, settings, ledger, call } = asking;
  const sent = requestFor(asking);
  const { event } = claudeCodeRequestFields(input);
  const body = {
    tool: input.toolName,
    args: input.toolInput,
    ...(event === undefined ? {} : { event }),
    context: sent.context,
    ...(settings.runId === null ? {} : { runId: settings.runId }),
  };
  let answer: RequestAnswer;
  try {
    answer = await asking.http.route<RequestAnswer>(lightRoutes.gates.request, {
      body,
      headers: { 'idempotency-key': sent.key },
    });
  } catch (error) {
    // Whether the request arrived is unknown: the retry sends the very same one.
    if (error instanceof OutOfTime) {
      ledger.write(sent.callId, {
        key: sent.key,
        context: sent.context,
        gateId: null,
        createdAt: Date.now(),
      });
    }
    if (error instanceof ServerRefused && error.code === 'IDEMPOTENCY_MISMATCH') ledger.remove(sent.callId);
    throw error;
  }
  if (answer.outcome === 'gated' && answer.gate !== null) return answerForGate(asking, answer, sent);
  if (sent.remembered) ledger.remove(sent.callId);
  const steers = steerInstructions(answer);
  if (steers.length > 0) return runSteered(call, steers);
  return answer.outcome === 'allowed'
    ? allowedByPolicy(call, answer.ruleId, answer.reason)
    : deniedByPolicy(call, answer.ruleId, answer.reason);
}

async function decidePreToolUse(input: PreToolUseInput, run: HookRun): Promise<PreToolUseOutput> {
  const { settings, http, timeLeft } = run;
  const call: CallFacts = { tool: input.toolName, url: settings.url };
  if (http === null) {
    return failClosed(
      call,
      'no Gatehouse agent token is configured',
      'Tell the user to set GATEHOUSE_TOKEN to an agent token (gatehouse agents create).',
    );
  }
  try {
    const asking = { input, settings, http, ledger: createLedger(settings.stateDir), call, timeLeft };
    return (await analyzeEdit(asking)) ?? (await ask(asking));
  } catch (error) {
    return failureAnswer(call, error, settings);
  }
}

interface HookRun {
  settings: HookSettings;
  http: HookHttp | null;
  signal: AbortSignal;
  timeLeft(): number;
}

async function decide(io: HookIo, run: HookRun): Promise<Result> {
  let parsed: HookInput;
  try {
    const text = io.readInput ? await io.readInput(run.signal) : await readAll(io.stdin, run.signal);
    parsed = parseHookInput(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { code: 2, output: null, stderr: `gatehouse hook: ${reason}; the tool call is blocked\n` };
  }
  if (parsed.kind === 'other') return { code: 0, output: null };
  if (parsed.kind === 'invalid') {
    return { code: 2, output: null, stderr: `gatehouse hook: ${parsed.reason}; the tool call is blocked\n` };
  }
  return { code: 0, output: await decidePreToolUse(parsed.input, run) };
}

/** Whatever hangs, this answer goes out before Claude Code's timeout would let the call through. */
function backstop(run: HookRun): { answer: Promise<Result>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const answer = new Promise<Result>((resolve) => {
    const call: CallFacts = { tool: 'tool', url: run.settings.url };
    const output = failClosed(
      call,
      `Gatehouse did not answer within ${run.settings.budgetMs} ms`,
      'Retry the same call in a moment.',
    );
    timer = setTimeout(
      () => resolve({ code: 0, output }),
      Math.max(1, run.timeLeft() + ANSWER_MARGIN_MS / 2),
    );
  });
  return { answer, cancel: () => clearTimeout(timer) };
}

/**
 * Answers one Claude Code hook call: reads the hook input from stdin and, for `PreToolUse`, prints
 * allow or deny as Claude Code's hook JSON within `budgetMs` of process start. Returns the exit code.
 * @example process.exitCode = await runClaudeCodeHook(settings, process)
 */
export async function runClaudeCodeHook(settings: HookSettings, io: HookIo): Promise<number> {
  const timeLeft = () => settings.budgetMs - ANSWER_MARGIN_MS - performance.now();
  const signal = AbortSignal.timeout(Math.max(1, Math.floor(timeLeft())));
  const http = settings.token === null ? null : createHookHttp(settings.url, settings.token, signal);
  // Connecting while stdin is read takes the connection off the allow path's critical path.
  http?.preconnect();
  const run: HookRun = { settings, http, signal, timeLeft };
  const guard = backstop(run);
  try {
    const result = await Promise.race([decide(io, run), guard.answer]);
    if (result.stderr !== undefined) io.stderr.write(result.stderr);
    if (result.output !== null) io.stdout.write(`${JSON.stringify(result.output)}\n`);
    return result.code;
  } finally {
    guard.cancel();
    http?.close();
  }
}
