// Claude Code's hook input, read the same way by the command hook (stdin) and the server (HTTP body).

import { canonicalJson } from './canonical-json.js';

/** The fields of Claude Code's `PreToolUse` and `PermissionRequest` input Gatehouse uses (it sends more; they are ignored). */
export interface ClaudeCodeToolCall {
  sessionId: string;
  cwd: string | null;
  toolName: string;
  toolInput: Record<string, unknown>;
  toolUseId: string | null;
}

/** What a hook input says: a tool call to decide, another event to ignore, or input that is unusable. */
export type ClaudeCodeHookInput =
  | { kind: 'pre_tool_use' | 'permission_request'; input: ClaudeCodeToolCall }
  | { kind: 'other'; event: string }
  | { kind: 'invalid'; reason: string; field: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function optionalString(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

const TOOL_EVENTS: Record<string, 'pre_tool_use' | 'permission_request'> = {
  PreToolUse: 'pre_tool_use',
  PermissionRequest: 'permission_request',
};

/** Reads an already parsed hook input (the JSON Claude Code writes to stdin or POSTs to a URL). */
export function readClaudeCodeHookValue(value: unknown): ClaudeCodeHookInput {
  if (!isRecord(value)) return { kind: 'invalid', reason: 'the hook input is not a JSON object', field: '' };
  const event = value.hook_event_name;
  if (typeof event !== 'string') {
    return { kind: 'invalid', reason: 'the hook input has no hook_event_name', field: 'hook_event_name' };
  }
  const kind = TOOL_EVENTS[event];
  if (kind === undefined) return { kind: 'other', event };
  const toolName = optionalString(value.tool_name);
  if (toolName === null) {
    return { kind: 'invalid', reason: `the ${event} input has no tool_name`, field: 'tool_name' };
  }
  const toolInput = value.tool_input ?? {};
  if (!isRecord(toolInput)) {
    return { kind: 'invalid', reason: `the ${event} tool_input is not an object`, field: 'tool_input' };
  }
  return {
    kind,
    input: {
      sessionId: optionalString(value.session_id) ?? 'unknown-session',
      cwd: optionalString(value.cwd),
      toolName,
      toolInput,
      toolUseId: optionalString(value.tool_use_id),
    },
  };
}

/** Reads the JSON text Claude Code writes to a command hook's stdin. */
export function parseClaudeCodeHookInput(text: string): ClaudeCodeHookInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: 'the hook input on stdin is not JSON', field: '' };
  }
  const read = readClaudeCodeHookValue(value);
  if (read.kind === 'invalid' && read.field === '') {
    return { ...read, reason: 'the hook input on stdin is not a JSON object' };
  }
  return read;
}

/** The context a gate request of a Claude Code tool call carries. */
export function claudeCodeCallContext(input: ClaudeCodeToolCall): Record<string, unknown> {
  return {
    session_id: input.sessionId,
    ...(input.cwd === null ? {} : { cwd: input.cwd }),
    ...(input.toolUseId === null ? {} : { tool_use_id: input.toolUseId }),
  };
}

/** Claude Code's plan-mode tool: its `plan` (markdown) is the run's plan. */
export const CLAUDE_CODE_PLAN_TOOL = 'ExitPlanMode';

/**
 * What a Claude Code call adds to its request: leaving plan mode announces the run's plan (event
 * `planning_complete`, the plan as the intent gate's design), so Gate 0 sees it; other calls add nothing.
 */
export function claudeCodeRequestFields(input: ClaudeCodeToolCall): {
  event?: 'planning_complete';
  context: Record<string, unknown>;
} {
  if (input.toolName !== CLAUDE_CODE_PLAN_TOOL) return { context: {} };
  const { plan } = input.toolInput;
  return { event: 'planning_complete', context: typeof plan === 'string' ? { design: plan } : {} };
}

/**
 * What makes two Claude Code tool calls the same call: session, run, tool and canonical arguments.
 * Both hooks remember a call that was left waiting under this text, so its retry finds its gate.
 */
export function claudeCodeCallText(input: ClaudeCodeToolCall, runId: string | null): string {
  return canonicalJson({ session: input.sessionId, runId, tool: input.toolName, args: input.toolInput });
}

/** One replacement of Claude Code's `Edit` and `MultiEdit` tools. */
export interface StringEdit {
  oldString: string;
  newString: string;
  replaceAll: boolean;
}

/** The tools whose input says how a file changes. */
export const CLAUDE_CODE_EDIT_TOOLS: ReadonlySet<string> = new Set(['Edit', 'Write', 'MultiEdit']);

function stringEditOf(value: unknown): StringEdit | null {
  if (!isRecord(value)) return null;
  const { old_string, new_string, replace_all } = value;
  if (typeof old_string !== 'string' || typeof new_string !== 'string') return null;
  return { oldString: old_string, newString: new_string, replaceAll: replace_all === true };
}

/** The replacements an `Edit` or `MultiEdit` input asks for, in order; null for a malformed input. */
export function stringEditsOf(tool: string, toolInput: Record<string, unknown>): StringEdit[] | null {
  if (tool === 'Edit') {
    const edit = stringEditOf(toolInput);
    return edit === null ? null : [edit];
  }
  if (!Array.isArray(toolInput.edits) || toolInput.edits.length === 0) return null;
  const edits = toolInput.edits.map(stringEditOf);
  return edits.every((edit) => edit !== null) ? (edits as StringEdit[]) : null;
}
