import type { PolicyIssue } from 'gatehouse-hitl-core';

/** Lines of a policy text where each rule starts, by rule index (YAML block lists). */
function ruleStartLines(lines: readonly string[]): number[] {
  const rulesKey = lines.findIndex((line) => /^rules\s*:\s*(#.*)?$/.test(line));
  if (rulesKey < 0) return [];
  const starts: number[] = [];
  let itemIndent: number | null = null;
  for (let i = rulesKey + 1; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    if (/^\s*(#.*)?$/.test(line)) continue;
    const indent = line.length - line.trimStart().length;
    const isItem = /^\s*-(\s|$)/.test(line);
    if (itemIndent === null) {
      if (!isItem) return starts;
      itemIndent = indent;
    }
    if (indent < itemIndent || (indent === itemIndent && !isItem)) return starts;
    if (indent === itemIndent && isItem) starts.push(i);
  }
  return starts;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The line of `key:` between `from` and `to` (exclusive), or null. */
function keyLine(lines: readonly string[], key: string, from: number, to: number): number | null {
  const pattern = new RegExp(`^\\s*(-\\s+)?["']?${escapeRegExp(key)}["']?\\s*:`);
  for (let i = from; i < to; i += 1) if (pattern.test(lines[i] ?? '')) return i;
  return null;
}

/** The first key named in an issue path after the rule, e.g. `condition` in `rules[2].condition`. */
function fieldOf(path: string): string | null {
  const match = /^rules\[\d+\]\.([A-Za-z_][\w]*)/.exec(path);
  return match?.[1] ?? null;
}

function lineOfRuleId(lines: readonly string[], ruleId: string): number | null {
  const pattern = new RegExp(`["']?id["']?\\s*:\\s*["']?${escapeRegExp(ruleId)}["']?\\s*(,|}|$|#)`);
  const index = lines.findIndex((line) => pattern.test(line));
  return index < 0 ? null : index;
}

/**
 * The 1-based line an issue points at in the policy text: the rule's field, else the rule's first
 * line, else a top-level key or the line a YAML parse error names; null when it cannot be placed.
 */
export function issueLine(source: string, issue: PolicyIssue): number | null {
  const lines = source.split(/\r?\n/);
  if (issue.ruleIndex !== null) {
    const starts = ruleStartLines(lines);
    const start = starts[issue.ruleIndex];
    if (start !== undefined) {
      const end = starts[issue.ruleIndex + 1] ?? lines.length;
      const field = fieldOf(issue.path);
      const at = field === null ? null : keyLine(lines, field, start, end);
      return (at ?? start) + 1;
    }
    const byId = issue.ruleId === null ? null : lineOfRuleId(lines, issue.ruleId);
    return byId === null ? null : byId + 1;
  }
  const topKey = /^([A-Za-z_]\w*)/.exec(issue.path)?.[1];
  if (topKey !== undefined) {
    const at = keyLine(lines, topKey, 0, lines.length);
    if (at !== null) return at + 1;
  }
  const parseLine = /\bline (\d+)/i.exec(issue.message)?.[1];
  return parseLine === undefined ? null : Number(parseLine);
}

/** Where the rule an issue names is, for grouping: its id, else its index, else the whole policy. */
export function issueSubject(issue: PolicyIssue): string {
  if (issue.ruleId !== null) return `Rule “${issue.ruleId}”`;
  if (issue.ruleIndex !== null) return `Rule ${issue.ruleIndex + 1} (no id)`;
  return 'Policy';
}
