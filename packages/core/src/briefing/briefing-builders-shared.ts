import type { BriefingField, BriefingInput, BriefingSection } from './briefing.js';
import { formatConfidence } from './briefing-fields.js';

/** Labelled facts, leaving out those without a value. */
export function fields(...pairs: readonly (readonly [string, string | null | undefined])[]): BriefingField[] {
  return pairs.flatMap(([label, value]) => (value === null || value === undefined ? [] : [{ label, value }]));
}

/** Unlabelled facts, one per item. */
export function listFields(items: readonly string[]): BriefingField[] {
  return items.map((value) => ({ label: '', value }));
}

/** A section; lines without a value are left out. */
export function section(
  title: string,
  facts: BriefingField[],
  lines: readonly (string | null)[] = [],
): BriefingSection {
  return { title, fields: facts, lines: lines.filter((line): line is string => line !== null) };
}

/** Who asked and how sure they were. */
export function requestFields(input: BriefingInput): BriefingField[] {
  return fields(
    ['Agent', input.agent],
    ['Confidence', input.confidence && formatConfidence(input.confidence)],
  );
}
