import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { diffTexts, type FileDiff, parseUnifiedDiff } from './diff-lines.js';

type Fields = Readonly<Record<string, unknown>>;

const DIFF_KEYS = ['diff', 'patch', 'unifiedDiff', 'unified_diff'];
const PATH_KEYS = ['file_path', 'filePath', 'path', 'file'];
// Before/after pairs agents and coding tools send (Claude Code's Edit tool sends old_string/new_string).
const PAIRS: readonly (readonly [string, string])[] = [
  ['before', 'after'],
  ['old_string', 'new_string'],
  ['oldString', 'newString'],
  ['old_str', 'new_str'],
  ['oldText', 'newText'],
  ['original', 'modified'],
];

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(fields: Fields, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
}

function changesIn(fields: Fields, fallbackPath: string | null): FileDiff[] {
  const path = text(fields, PATH_KEYS) ?? fallbackPath;
  const unified = text(fields, DIFF_KEYS);
  if (unified !== null) {
    return parseUnifiedDiff(unified).map((file) => ({ ...file, path: file.path ?? path }));
  }
  for (const [beforeKey, afterKey] of PAIRS) {
    const before = Object.hasOwn(fields, beforeKey) ? fields[beforeKey] : undefined;
    const after = Object.hasOwn(fields, afterKey) ? fields[afterKey] : undefined;
    if (typeof before === 'string' && typeof after === 'string') {
      return [{ path, lines: diffTexts(before, after) }];
    }
  }
  return [];
}

function listedChanges(context: Fields): FileDiff[] {
  const list = context.changes ?? context.fileChanges ?? context.file_changes;
  if (!Array.isArray(list)) return [];
  return list.filter(isRecord).flatMap((entry) => changesIn(entry, null));
}

/**
 * The changes a gate carries, as file diffs: a unified diff (`diff` / `patch`), before and after
 * texts, or a `changes` list of either, from the gate's context or its action's arguments.
 */
export function gateChanges(gate: Pick<Gate, 'context' | 'action'>): FileDiff[] {
  const context: Fields = isRecord(gate.context) ? gate.context : {};
  const args: Fields = isRecord(gate.action?.args) ? gate.action.args : {};
  const argPath = text(args, PATH_KEYS);
  const found = [...listedChanges(context), ...changesIn(context, argPath), ...changesIn(args, null)];
  return found.filter((file) => file.lines.some((line) => line.kind === 'add' || line.kind === 'remove'));
}

/** Gate types whose review is about changes: they always show the diff section, with an empty state. */
export const CHANGE_GATE_TYPES: ReadonlySet<string> = new Set([
  'destructive_action',
  'phase_review',
  'code_review',
]);
