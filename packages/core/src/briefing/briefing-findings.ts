import type { BriefingSection } from './briefing.js';
import { listFields, section } from './briefing-builders-shared.js';
import { type Context, readList } from './briefing-fields.js';

/** One finding a change-analysis gate is about, as its context carries it. */
export interface GateFinding {
  file: string;
  line: number | null;
  pattern: string | null;
  message: string | null;
  /** A small unified-diff hunk around the line, from the files the server received; null without one. */
  hunk: string | null;
}

/** How many findings a summary lists before "and N more". */
export const FINDINGS_SHOWN = 5;

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function lineOf(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

function findingOf(entry: unknown): GateFinding | null {
  if (typeof entry !== 'object' || entry === null) return null;
  const fields = entry as Record<string, unknown>;
  const file = text(fields.file);
  if (file === null) return null;
  return {
    file,
    line: lineOf(fields.line),
    pattern: text(fields.pattern),
    message: text(fields.message),
    hunk: text(fields.hunk),
  };
}

/**
 * The findings of a destructive-action, recovery or false-positive gate: the context's `findings`
 * list, or the one finding its `pattern`, `files`, `line`, `message` and `hunk` describe.
 */
export function gateFindings(context: Context): GateFinding[] {
  if (Array.isArray(context.findings)) return context.findings.flatMap((entry) => findingOf(entry) ?? []);
  const file = readList(context, 'files', 'file')[0];
  if (file === undefined || text(context.pattern) === null) return [];
  const one = findingOf({ ...context, file });
  return one === null ? [] : [one];
}

/** `src/cart.test.ts:12`, or the file alone for a finding about the whole file. */
export function findingPlace(finding: Pick<GateFinding, 'file' | 'line'>): string {
  return finding.line === null ? finding.file : `${finding.file}:${finding.line}`;
}

/** One line per finding, `file:line pattern: message`, the first `shown`, then "and N more". */
export function findingLines(findings: readonly GateFinding[], shown = FINDINGS_SHOWN): string[] {
  const lines = findings.slice(0, shown).map((finding) => {
    const what = [finding.pattern, finding.message].filter((part) => part !== null).join(': ');
    return what === '' ? findingPlace(finding) : `${findingPlace(finding)} ${what}`;
  });
  const more = findings.length - shown;
  return more > 0 ? [...lines, `and ${more} more`] : lines;
}

/** The Findings section of a briefing: each finding's place and what it is, bounded. */
export function findingsSection(context: Context): BriefingSection {
  return section('Findings', listFields(findingLines(gateFindings(context))));
}
