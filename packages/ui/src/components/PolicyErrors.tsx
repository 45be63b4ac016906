import type { PolicyIssue } from '../api/policy.js';
import { issueSubject } from '../lib/policy-lines.js';

/** A problem of the policy with the editor line it points at (null when it cannot be placed). */
export interface PlacedIssue {
  issue: PolicyIssue;
  line: number | null;
}

interface Group {
  subject: string;
  line: number | null;
  items: PlacedIssue[];
}

function groupByRule(issues: readonly PlacedIssue[]): Group[] {
  const groups = new Map<string, Group>();
  for (const placed of issues) {
    const subject = issueSubject(placed.issue);
    const group = groups.get(subject) ?? { subject, line: placed.line, items: [] };
    if (group.line === null || (placed.line !== null && placed.line < group.line)) group.line = placed.line;
    group.items.push(placed);
    groups.set(subject, group);
  }
  return [...groups.values()];
}

/**
 * The problems the server found, under the rule each one names, with a button that puts the caret
 * on the line. `role="alert"` announces the list when it appears.
 */
export function PolicyErrors({
  id,
  summary,
  issues,
  stale,
  onGoToLine,
}: {
  id: string;
  summary: string;
  issues: readonly PlacedIssue[];
  stale: boolean;
  onGoToLine: (line: number) => void;
}) {
  const groups = groupByRule(issues);
  return (
    <section id={id} className="notice error policy-errors" role="alert" aria-label="Errors">
      <h2>{issues.length === 1 ? '1 problem' : `${issues.length} problems`} in the policy</h2>
      <p>{summary}</p>
      {stale ? <p className="muted">The text changed since this check; validate again.</p> : null}
      <ul className="policy-error-groups">
        {groups.map((group) => (
          <li key={group.subject}>
            <strong>{group.subject}</strong>
            {group.line !== null ? <span> — line {group.line}</span> : null}
            <ul>
              {group.items.map((placed, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the server's list order is the identity
                <li key={index}>
                  {placed.issue.path ? <code>{placed.issue.path}</code> : null}
                  {placed.issue.path ? ': ' : null}
                  {placed.issue.message}{' '}
                  {placed.line !== null ? (
                    <button
                      type="button"
                      className="button-link"
                      onClick={() => onGoToLine(placed.line as number)}
                    >
                      Go to line {placed.line}
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
