import type { Finding } from 'gatehouse-hitl-analysis';
import type { Output } from '../command.js';
import { terminalSafe } from '../output.js';
import type { CheckReport } from './check-verdict.js';

const VERDICT_TEXT = {
  pass: 'pass',
  gate: 'gate: a person must approve this destructive change',
  fail: 'fail: findings at or above the --fail-on severity',
} as const;

function byFile(findings: readonly Finding[]): Map<string, Finding[]> {
  const files = new Map<string, Finding[]>();
  for (const finding of findings) {
    const list = files.get(finding.file) ?? [];
    list.push(finding);
    files.set(finding.file, list);
  }
  return files;
}

function findingLine(finding: Finding): string {
  const line = finding.line === null ? '-' : String(finding.line);
  const columns = [
    line.padStart(5),
    finding.severity.padEnd(8),
    terminalSafe(finding.pattern).padEnd(26),
    finding.confidence.toFixed(2),
    terminalSafe(finding.message),
  ];
  return `  ${columns.join('  ')}`;
}

/** The one line that says how the check ended and why. */
export function verdictLine(report: CheckReport): string {
  const { destructive } = report;
  const why = destructive.triggered
    ? ` (${destructive.reasons.join('; ')})`
    : destructive.autoApproved
      ? ` (${destructive.autoApproved.replaceAll('_', ' ')}: auto-approved)`
      : '';
  return `verdict: ${VERDICT_TEXT[report.verdict]}${terminalSafe(why)}`;
}

/** The readable report: findings grouped by file (line, severity, pattern, confidence, message), then the verdict. */
export function printCheckReport(out: Output, report: CheckReport, files: number): void {
  const lines: string[] = [];
  const sorted = [...report.findings].sort(
    (a, b) => a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0),
  );
  for (const [file, findings] of byFile(sorted)) {
    lines.push(terminalSafe(file));
    for (const finding of findings) lines.push(findingLine(finding));
    lines.push('');
  }
  const count = report.findings.length;
  lines.push(`${count} finding${count === 1 ? '' : 's'} in ${files} changed file${files === 1 ? '' : 's'}`);
  lines.push(verdictLine(report));
  out.write(`${lines.join('\n')}\n`);
}
