import { readFile } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import type { AnalyzeResponse } from 'gatehouse-hitl-protocol';
import {
  analysisPending,
  analysisRefused,
  CLAUDE_CODE_EDIT_TOOLS,
  canonicalJson,
  lightRoutes,
  type StringEdit,
  stringEditsOf,
  summariseFindings,
} from 'gatehouse-hitl-protocol/rules';
import type { CallFacts, GateView, PreToolUseOutput } from './answers.js';
import type { PreToolUseInput } from './claude-code.js';
import { type HookHttp, OutOfTime } from './hook-http.js';
import { fingerprint, type Ledger } from './ledger.js';

/** The tools whose input says how a file changes. */
export const EDIT_TOOLS = CLAUDE_CODE_EDIT_TOOLS;
export type { StringEdit };
export { stringEditsOf };

/** A file as it is on disk and as the edit would leave it. */
export interface EditedFile {
  /** Relative to the session's working directory when inside it, else absolute. */
  path: string;
  before: string | null;
  after: string;
}

/** The server's limit on one file's text (the protocol's ANALYZE_DIFF_MAX_CHARS; a test keeps them equal). */
export const ANALYZE_TEXT_MAX_CHARS = 1_000_000;
/** The server's limit on one analysis's lines, before and after (the protocol's ANALYZE_LINES_MAX). */
export const ANALYZE_LINES_MAX = 40_000;
/** Above this the request would pass the server's 1 MiB body limit: such edits go to the policy alone. */
const BODY_MAX_BYTES = 900_000;

function occurrences(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at >= 0; at = text.indexOf(search, at + search.length)) count++;
  return count;
}

/**
 * `text` after one replacement as Claude Code makes it, or null where Claude Code refuses the edit
 * (no match, several matches without `replaceAll`, nothing changed) and reports that itself.
 */
export function applyStringEdit(text: string | null, edit: StringEdit): string | null {
  if (edit.oldString === edit.newString) return null;
  if (text === null) return edit.oldString === '' ? edit.newString : null;
  if (edit.oldString === '') return text === '' ? edit.newString : null;
  const count = occurrences(text, edit.oldString);
  if (count === 0 || (count > 1 && !edit.replaceAll)) return null;
  // Literal replacement: `$&` and friends in new_string are text, not patterns.
  if (edit.replaceAll) return text.split(edit.oldString).join(edit.newString);
  const at = text.indexOf(edit.oldString);
  return text.slice(0, at) + edit.newString + text.slice(at + edit.oldString.length);
}

/** The content after `Edit`, `MultiEdit` (each edit on the result of the one before) or `Write`. */
export function contentAfter(tool: string, toolInput: Record<string, unknown>, before: string | null) {
  if (tool === 'Write') return typeof toolInput.content === 'string' ? toolInput.content : null;
  let text = before;
  for (const edit of stringEditsOf(tool, toolInput) ?? []) {
    text = applyStringEdit(text, edit);
    if (text === null) return null;
  }
  return text === before ? null : text;
}

async function readCurrent(file: string): Promise<string | null | undefined> {
  try {
    // node:fs/promises would cost every hook run its load time; only edits in a run read a file.
    return await new Promise<string>((resolve, reject) =>
      readFile(file, 'utf8', (error, text) => (error ? reject(error) : resolve(text))),
    );
  } catch (error) {
    // A file that is not there is one the edit creates; any other failure Claude Code reports.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined;
  }
}

function displayPath(file: string, cwd: string | null): string {
  if (cwd === null) return file;
  const inside = relative(cwd, file);
  return inside === '' || inside.startsWith('..') || isAbsolute(inside) ? file : inside.split(sep).join('/');
}

/**
 * The file an `Edit`, `Write` or `MultiEdit` call would change, before (from disk) and after; null
 * when the call is no such edit, Claude Code will refuse it, or it is too large to send.
 */
export async function editedFile(
  tool: string,
  toolInput: Record<string, unknown>,
  cwd: string | null,
): Promise<EditedFile | null> {
  if (!EDIT_TOOLS.has(tool)) return null;
  const target = toolInput.file_path;
  if (typeof target !== 'string' || target === '') return null;
  const file = isAbsolute(target) || cwd === null ? target : join(cwd, target);
  const before = await readCurrent(file);
  if (before === undefined) return null;
  const after = contentAfter(tool, toolInput, before);
  if (after === null || after.length > ANALYZE_TEXT_MAX_CHARS) return null;
  if (Buffer.byteLength(before ?? '') + Buffer.byteLength(after) > BODY_MAX_BYTES) return null;
  if (lineCount(before) + lineCount(after) > ANALYZE_LINES_MAX) return null;
  return { path: displayPath(file, cwd), before, after };
}

function lineCount(text: string | null): number {
  return text === null || text === '' ? 0 : text.split('\n').length;
}

/** What the hook knows while it analyses an edit (the same it has for its usual request). */
export interface EditAnalysisContext {
  input: PreToolUseInput;
  settings: { runId: string | null; url: string };
  http: HookHttp;
  ledger: Ledger;
  call: CallFacts;
  timeLeft(): number;
}

/** Time kept for the usual request after the analysis's gates were approved. */
const REQUEST_RESERVE_MS = 1_500;
const MIN_WAIT_MS = 100;
const MAX_WAIT_MS = 60_000;

/** The findings as lines the model can act on (shared with the server's HTTP hook). */
export { summariseFindings };

async function settleGates(context: EditAnalysisContext, gates: GateView[]): Promise<GateView[]> {
  const settled: GateView[] = [];
  for (const gate of gates) {
    let current = gate;
    while (current.status === 'pending') {
      const wait = Math.min(MAX_WAIT_MS, Math.floor(context.timeLeft() - REQUEST_RESERVE_MS));
      try {
        const waited = await context.http.route<{ gate: GateView }>(lightRoutes.gates.wait, {
          params: { id: current.id },
          query: { timeoutMs: Math.max(0, wait) },
        });
        current = waited.gate;
      } catch (error) {
        if (error instanceof OutOfTime) break;
        throw error;
      }
      if (wait < MIN_WAIT_MS) break;
    }
    settled.push(current);
  }
  return settled;
}

interface Remembered {
  gates: GateView[];
  summary: string;
}

function remembered(context: EditAnalysisContext, id: string): Remembered | null {
  const entry = context.ledger.read(id);
  const ids = entry?.context.analysisGates;
  const summary = entry?.context.summary;
  if (!Array.isArray(ids) || typeof summary !== 'string') return null;
  const gates = ids
    .filter((gateId): gateId is string => typeof gateId === 'string')
    .map((gateId) => ({ id: gateId, status: 'pending', payloadHash: null, decision: null }));
  return { gates, summary };
}

async function analyse(context: EditAnalysisContext, file: EditedFile, runId: string): Promise<Remembered> {
  const { input } = context;
  const answer = await context.http.route<AnalyzeResponse>(lightRoutes.analysis.analyze, {
    body: {
      runId,
      files: [file],
      action: { tool: input.toolName, args: input.toolInput },
    },
  });
  const gates = (answer.gates as GateView[]).filter((gate) => gate.status !== 'approved');
  return { gates, summary: summariseFindings(answer.findings) };
}

/**
 * Sends an `Edit`, `Write` or `MultiEdit` call's change to `POST /v1/analyze` in the hook's run.
 * Returns the hook's answer when a gate the analysis opened is pending or was not approved, or null
 * to go on with the usual request. The retry of a pending call waits on the same gates.
 */
export async function analyzeEdit(context: EditAnalysisContext): Promise<PreToolUseOutput | null> {
  const { input, settings, ledger, call } = context;
  // Without a run the server opens no gate, so the analysis could not change the answer.
  if (settings.runId === null || !EDIT_TOOLS.has(input.toolName)) return null;
  const file = await editedFile(input.toolName, input.toolInput, input.cwd);
  if (file === null) return null;
  const id = fingerprint(
    canonicalJson({
      analysis: true,
      session: input.sessionId,
      runId: settings.runId,
      tool: input.toolName,
      args: input.toolInput,
      before: file.before === null ? null : fingerprint(file.before),
    }),
  );
  const found = remembered(context, id) ?? (await analyse(context, file, settings.runId));
  if (found.gates.length === 0) {
    ledger.remove(id);
    return null;
  }
  const gates = await settleGates(context, found.gates);
  const refused = gates.find((gate) => gate.status !== 'pending' && gate.status !== 'approved');
  if (refused !== undefined) {
    ledger.remove(id);
    return analysisRefused(call, refused, found.summary);
  }
  const waiting = gates.filter((gate) => gate.status === 'pending');
  if (waiting.length === 0) {
    ledger.remove(id);
    return null;
  }
  ledger.write(id, {
    key: `analysis-${id}`,
    gateId: waiting[0]?.id ?? null,
    context: { analysisGates: waiting.map((gate) => gate.id), summary: found.summary },
    createdAt: Date.now(),
  });
  return analysisPending(call, waiting, found.summary);
}
