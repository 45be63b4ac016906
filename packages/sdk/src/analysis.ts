import type {
  AnalyzeBody,
  AnalyzeResponse,
  FindingDocument,
  GateDocument as Gate,
} from 'gatehouse-hitl-protocol';
import { lightRoutes } from 'gatehouse-hitl-protocol/rules';
import type { Transport } from './http.js';
import { resultFromGate } from './result.js';
import type { GateResult } from './types.js';

/** One file of a before/after change: `before` null when the change adds it, `after` null when it deletes it. */
export interface AnalyzeFile {
  /** Workspace-relative path after the change. */
  path: string;
  /** Path before a rename. */
  oldPath?: string | undefined;
  before: string | null;
  after: string | null;
}

/** Coverage before and after: report texts (lcov, Istanbul JSON summary, Cobertura XML) or line percentages. */
export type AnalyzeCoverage = NonNullable<AnalyzeBody['coverage']>;

/** What `analyze` sends: exactly one of `diff` or `files`. */
export type AnalyzeOptions = {
  /** The run the change belongs to (this agent's); without it the server opens no gate. */
  runId?: string | undefined;
  coverage?: AnalyzeCoverage | undefined;
  /** The action the change is for; gates opened bind to it. */
  action?: { tool: string; args?: Record<string, unknown> | undefined } | undefined;
  signal?: AbortSignal | undefined;
} & ({ diff: string; files?: undefined } | { files: AnalyzeFile[]; diff?: undefined });

/** `analyzeAndWait`'s options: `analyze`'s, plus a callback for each gate that has to be waited on. */
export type AnalyzeAndWaitOptions = AnalyzeOptions & {
  /** Called for each pending gate before waiting on it, e.g. to tell the user where to decide. */
  onGate?: ((gateId: string, gate: Gate) => void) | undefined;
};

/** The analysis: findings (file, line, pattern, severity, confidence), facts, verdict and the gates it opened. */
export type AnalysisAnswer = AnalyzeResponse;

/** One thing the analysis noticed: file, line, pattern, severity, confidence, name and message. */
export type AnalysisFinding = FindingDocument;

/** The analysis and the answer of every gate it opened. */
export interface AnalysisDecision {
  analysis: AnalysisAnswer;
  /** One answer per gate, in the order the server opened them; approved gates included. */
  decisions: GateResult[];
  /** The answers that keep the change from going ahead (anything but approved). */
  blocking: GateResult[];
  /** True when nothing blocks: act on the change only then. */
  proceed: boolean;
}

/** The request body; the server checks its shape. */
function bodyOf(options: AnalyzeOptions): AnalyzeBody {
  const body: Record<string, unknown> = {};
  if (options.runId !== undefined) body.runId = options.runId;
  if (options.diff !== undefined) body.diff = options.diff;
  if (options.files !== undefined) {
    body.files = options.files.map((file) => ({
      path: file.path,
      ...(file.oldPath === undefined ? {} : { oldPath: file.oldPath }),
      before: file.before,
      after: file.after,
    }));
  }
  if (options.coverage !== undefined) body.coverage = options.coverage;
  if (options.action !== undefined) {
    body.action = { tool: options.action.tool, args: options.action.args ?? {} };
  }
  return body as AnalyzeBody;
}

/** Sends the change to `POST /v1/analyze`; not retried once sent, since in a run it opens gates. */
export async function requestAnalysis(
  transport: Transport,
  options: AnalyzeOptions,
): Promise<AnalysisAnswer> {
  if ((options.diff === undefined) === (options.files === undefined)) {
    throw new TypeError('give exactly one of diff (a unified diff) or files ([{ path, before, after }])');
  }
  return transport.route(
    lightRoutes.analysis.analyze,
    { body: bodyOf(options) },
    { signal: options.signal, retry: 'safe' },
  );
}

/** Waits for each pending gate of `analysis` with `waitForGate` and collects the answers. */
export async function decideAnalysis(
  analysis: AnalysisAnswer,
  options: Pick<AnalyzeAndWaitOptions, 'onGate' | 'signal'>,
  waitForGate: (gateId: string, signal: AbortSignal | undefined) => Promise<GateResult>,
): Promise<AnalysisDecision> {
  const decisions: GateResult[] = [];
  for (const gate of analysis.gates) {
    if (gate.status !== 'pending') {
      decisions.push(resultFromGate(gate));
      continue;
    }
    options.onGate?.(gate.id, gate);
    decisions.push(await waitForGate(gate.id, options.signal));
  }
  const blocking = decisions.filter((decision) => decision.outcome !== 'approved');
  return { analysis, decisions, blocking, proceed: blocking.length === 0 };
}
