import { findingPlace, type GateFinding, gateFindings } from 'gatehouse-hitl-core';
import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { Revealed } from '../../components/Revealed.js';

const LINE_KIND: Readonly<Record<string, string>> = { '+': 'add', '-': 'remove', ' ': 'context' };

/** A finding's hunk, each line marked `+`, `-` or blank as text, as the Changes section shows them. */
function Hunk({ finding }: { finding: GateFinding & { hunk: string } }) {
  const lines = finding.hunk.split('\n');
  return (
    <pre className="diff-lines">
      {lines.map((line, i) => {
        const hunk = line.startsWith('@@');
        const kind = hunk ? 'hunk' : (LINE_KIND[line[0] ?? ' '] ?? 'context');
        return (
          // Lines have no identity but their place; the list never reorders.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <span key={i} className={`diff-line diff-${kind}`}>
            {!hunk && (
              <span className="diff-marker" aria-hidden={kind === 'context'}>
                {kind === 'context' ? ' ' : line[0]}
              </span>
            )}
            <Revealed text={hunk ? line : line.slice(1)} />
            {'\n'}
          </span>
        );
      })}
    </pre>
  );
}

/**
 * Every finding a destructive-action, recovery or false-positive gate is about: which file and line,
 * what was found, and the lines before and after the change there, from the files the server holds.
 */
export function GateFindings({ gate }: { gate: Pick<Gate, 'context'> }) {
  const findings = gateFindings(gate.context);
  if (findings.length === 0) return null;
  return (
    <section className="card" aria-labelledby="findings-heading">
      <h2 id="findings-heading">Findings</h2>
      <ol className="gate-findings">
        {findings.map((finding, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: two findings may name the same place; the list never reorders
          <li key={`${findingPlace(finding)}#${i}`}>
            <p>
              <code>
                <Revealed text={findingPlace(finding)} multiline={false} />
              </code>
              {finding.pattern && (
                <>
                  {' '}
                  <span className="badge badge-neutral">{finding.pattern}</span>
                </>
              )}
              {finding.message && (
                <>
                  {' '}
                  <Revealed text={finding.message} />
                </>
              )}
            </p>
            {finding.hunk === null ? (
              <p className="muted">
                No before/after lines: the change sent to the server did not include this line.
              </p>
            ) : (
              <Hunk finding={{ ...finding, hunk: finding.hunk }} />
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
