import type { Briefing } from 'gatehouse-hitl-core';
import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { isWorkspacePath } from '../../components/decision-form.js';
import type { FileDiff } from '../../components/diff-lines.js';

const PATH_ARGS = ['path', 'file_path', 'filePath', 'file', 'paths', 'files', 'filePaths'];
const CONTEXT_PATHS = ['filesChanged', 'changedFiles', 'files', 'artifacts'];

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return [];
}

/** Every workspace path the gate names (artifacts, path arguments, changed files), for the steer's picker. */
export function artifactChoices(
  gate: Gate,
  briefing: Briefing | null,
  changes: readonly FileDiff[],
): string[] {
  const args = gate.action?.args ?? {};
  const found = [
    ...gate.artifacts,
    ...(briefing?.artifacts ?? []),
    ...PATH_ARGS.flatMap((key) => strings(args[key])),
    ...CONTEXT_PATHS.flatMap((key) => strings(gate.context[key])),
    ...changes.flatMap((file) => (file.path === null ? [] : [file.path])),
  ];
  return [...new Set(found.map((path) => path.trim()))].filter(isWorkspacePath);
}

/** The agent's reasons for its confidence: `context.reasons`, else the briefing's Reasons section. */
export function confidenceReasons(gate: Gate, briefing: Briefing | null): string[] {
  const given = strings(gate.context.reasons).filter((reason) => reason.trim() !== '');
  if (given.length > 0) return given;
  const section = briefing?.sections.find((candidate) => candidate.title === 'Reasons');
  return section ? section.fields.map((field) => field.value) : [];
}

/** `tool_call` → `Tool call`. */
export function gateTypeLabel(type: string): string {
  const words = type.replace(/_/g, ' ').trim();
  return words === '' ? 'Gate' : words[0]!.toUpperCase() + words.slice(1);
}

export const THRESHOLD_LABEL: Record<Gate['threshold'], string> = {
  mandatory: 'Mandatory',
  advisory: 'Advisory',
  conditional: 'Conditional',
};
