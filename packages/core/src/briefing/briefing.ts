import { builtinGateSpec } from '../gate-types/index.js';
import { decisionKeys } from '../gates/decision-keys.js';
import { gateHasHiddenCharacters, HIDDEN_CHARACTERS_WARNING, revealText } from '../reveal.js';
import { sanitizeText, truncateToWidth } from '../sanitize.js';
import type { Gate } from '../schemas.js';
import { readProposedAction } from './briefing-action.js';
import { buildGenericParts, zeroBandDiagnostics } from './briefing-builders.js';
import {
  type Context,
  describe,
  formatNumber,
  isRecord,
  pick,
  readList,
  readNumber,
  readText,
  titleCase,
} from './briefing-fields.js';

/** Confidence bands of a briefing, on the 0–1 scale: high ≥ 0.8, medium ≥ 0.5, low ≥ 0.2, zero below. */
export type BriefingConfidenceBand = 'high' | 'medium' | 'low' | 'zero';

/** The agent's confidence as a briefing shows it. */
export interface BriefingConfidence {
  /** 0–100, whole number. */
  score: number;
  /** 0–1. */
  value: number;
  band: BriefingConfidenceBand;
}

/** One labelled fact; an empty label shows the value alone. */
export interface BriefingField {
  label: string;
  value: string;
}

/** A titled group of facts (`• Label: value`) followed by free lines (recovery iterations, task output). */
export interface BriefingSection {
  title: string;
  fields: BriefingField[];
  lines: string[];
}

/** The tool call or operation a gate is about, in short. */
export interface ProposedAction {
  tool: string | null;
  operation: string | null;
  /** Key arguments first (command, path, url, query), as `name=value` pairs. */
  argsSummary: string;
}

/** One answer the reviewer can give. */
export interface BriefingOption {
  id: string;
  label: string;
  key: string;
  description: string;
  ends: boolean;
}

/** The Summary of Action of a gate: everything a reviewer needs to decide, hidden characters shown as ⟨U+…⟩ markers. */
export interface Briefing {
  gateType: string;
  /** One line. */
  summary: string;
  /** The sections as multi-line text. */
  details: string;
  sections: BriefingSection[];
  artifacts: string[];
  agent: string | null;
  confidence: BriefingConfidence | null;
  constraintInfo: string | null;
  recoveryHistory: string[];
  proposedAction: ProposedAction | null;
  options: BriefingOption[];
  /** The gate's action, title or context held hidden characters; the first section then warns of them. */
  hiddenCharacters: boolean;
}

/** What a gate-type builder adds to the parts every briefing shares. */
export interface BriefingParts {
  summary: string | null;
  sections: BriefingSection[];
  artifacts?: string[];
  constraintInfo?: string | null;
}

/** What a gate-type builder reads. */
export interface BriefingInput {
  gate: Gate;
  context: Context;
  agent: string | null;
  confidence: BriefingConfidence | null;
  recoveryHistory: string[];
  proposedAction: ProposedAction | null;
}

/** Maps a 0–1 confidence to its band. */
export function briefingConfidenceBand(value: number): BriefingConfidenceBand {
  if (value >= 0.8) return 'high';
  if (value >= 0.5) return 'medium';
  if (value >= 0.2) return 'low';
  return 'zero';
}

function toConfidence(value: number | null): BriefingConfidence | null {
  if (value === null || !Number.isFinite(value)) return null;
  const clamped = Math.min(1, Math.max(0, value));
  return { score: Math.round(clamped * 100), value: clamped, band: briefingConfidenceBand(clamped) };
}

// The gate's own confidence is on the 0–1 scale; agents' context may use either scale.
function readConfidence(gate: Gate, context: Context): BriefingConfidence | null {
  if (typeof gate.confidence === 'number') return toConfidence(gate.confidence);
  const score = readNumber(context, 'score', 'confidenceScore');
  if (score !== null) return toConfidence(score / 100);
  const confidence = readNumber(context, 'confidence', 'agentConfidence');
  return confidence === null ? null : toConfidence(confidence > 1 ? confidence / 100 : confidence);
}

/** The agent's confidence in `gate` as its briefing shows it, without building the rest (lists show it per row). */
export function gateConfidence(gate: Gate): BriefingConfidence | null {
  return readConfidence(gate, isRecord(gate.context) ? gate.context : {});
}

function historyEntry(item: unknown, index: number): string | null {
  if (!isRecord(item)) {
    const text = describe(item);
    if (text === null) return null;
    // Entries that already name their iteration or attempt keep their own numbering.
    return /^(iteration|attempt)\s+\d/i.test(text) ? text : `Iteration ${index + 1}: ${text}`;
  }
  const n = readNumber(item, 'iteration', 'attempt') ?? index + 1;
  const what = readText(item, 'action', 'summary', 'description', 'change', 'fix');
  const result = readText(item, 'result', 'outcome', 'error');
  const text = [what, result].filter((part) => part !== null).join(', ');
  return `Iteration ${formatNumber(n)}: ${text === '' ? (describe(item) ?? 'no details') : text}`;
}

function readRecoveryHistory(context: Context): string[] {
  const value = pick(context, 'recoveryHistory', 'history', 'iterations', 'attempts');
  if (!Array.isArray(value)) return [];
  return value.map(historyEntry).filter((entry): entry is string => entry !== null);
}

/** Names the caller looked up for the ids a gate holds. */
export interface BriefingNames {
  /** The registered name of the gate's agent; it wins over what the agent says about itself. */
  agent?: string | null | undefined;
}

function readAgent(gate: Gate, context: Context, names: BriefingNames): string | null {
  return describe(names.agent) ?? readText(context, 'agent', 'agentName') ?? describe(gate.agentId);
}

function renderDetails(sections: readonly BriefingSection[]): string {
  return sections
    .map((section) => {
      const fields = section.fields.map((f) => `  ${f.label === '' ? f.value : `${f.label}: ${f.value}`}`);
      const lines = section.lines.flatMap((line) => line.split('\n').map((part) => `  ${part}`));
      return [`${section.title}:`, ...fields, ...lines].join('\n');
    })
    .join('\n\n');
}

// Keys come from the one key map, and "approve always" is left out where the server would refuse it.
/** The options a person is offered on `gate`, each with its key, as its briefing lists them. */
export function briefingOptions(gate: Pick<Gate, 'options' | 'action'>): BriefingOption[] {
  return decisionKeys(gate).map(({ key, option }) => ({
    id: sanitizeText(String(option.id)),
    label: sanitizeText(String(option.label)),
    key,
    description: sanitizeText(String(option.description ?? '')),
    ends: option.ends === true,
  }));
}

const HIDDEN_CHARACTERS_SECTION: BriefingSection = {
  title: 'Hidden Characters',
  fields: [],
  lines: [HIDDEN_CHARACTERS_WARNING],
};

function uniqueArtifacts(lists: readonly (readonly unknown[])[]): string[] {
  const seen = new Set<string>();
  for (const item of lists.flat()) {
    const text = describe(item);
    if (text !== null) seen.add(text);
  }
  return [...seen];
}

function readInput(gate: Gate, names: BriefingNames): BriefingInput {
  const context: Context = isRecord(gate.context) ? gate.context : {};
  return {
    gate,
    context,
    agent: readAgent(gate, context, names),
    confidence: readConfidence(gate, context),
    recoveryHistory: readRecoveryHistory(context),
    proposedAction: readProposedAction(gate, context),
  };
}

/** Any gate asked for in the zero confidence band presents diagnostics, unless its own builder already does. */
function zeroBandSection(input: BriefingInput, parts: BriefingParts): BriefingSection[] {
  if (parts.sections.some((s) => s.title === 'Diagnostics')) return [];
  const diagnostics = zeroBandDiagnostics(
    input,
    readText(input.context, 'task', 'taskDescription', 'taskId'),
  );
  return diagnostics === null ? [] : [diagnostics];
}

/**
 * Builds the Summary of Action for any gate, reading its context defensively; hidden characters in any
 * string are shown as markers, and a first `Hidden Characters` section warns of them.
 * `names` carries the registered names of the ids it holds, so people read names, not ids;
 * `builder` is a custom gate type's own (built-in types bring theirs); `options` are those of another
 * view of the same gate (an audit record's briefing is built from the redacted gate, its options not).
 * @example buildBriefing(gate, { agent: 'coder-1' }).summary // 'coder-1 wants to run Bash: rm -rf build'
 */
export function buildBriefing(
  gate: Gate,
  names: BriefingNames = {},
  builder?: (input: BriefingInput) => BriefingParts,
  options: BriefingOption[] = briefingOptions(gate),
): Briefing {
  const input = readInput(gate, names);
  const parts = (builder ?? builtinGateSpec(String(gate.type))?.briefing ?? buildGenericParts)(input);
  const hiddenCharacters = gateHasHiddenCharacters(gate);
  const sections = [
    ...(hiddenCharacters ? [HIDDEN_CHARACTERS_SECTION] : []),
    ...parts.sections.filter((s) => s.fields.length > 0 || s.lines.length > 0),
    ...zeroBandSection(input, parts),
  ];
  const fallback = describe(gate.title) ?? titleCase(String(gate.type)) ?? 'Gate';
  const summary = truncateToWidth(revealText(parts.summary ?? fallback).trim() || fallback, 500);
  return {
    gateType: sanitizeText(String(gate.type)),
    summary: summary === '' ? 'Gate' : summary,
    details: renderDetails(sections),
    sections,
    artifacts: uniqueArtifacts([
      Array.isArray(gate.artifacts) ? gate.artifacts : [],
      readList(input.context, 'artifacts'),
      parts.artifacts ?? [],
    ]),
    agent: input.agent,
    confidence: input.confidence,
    constraintInfo: parts.constraintInfo ?? null,
    recoveryHistory: input.recoveryHistory,
    proposedAction: input.proposedAction,
    options,
    hiddenCharacters,
  };
}
