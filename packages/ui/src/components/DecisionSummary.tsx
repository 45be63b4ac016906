import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import type { ReactNode } from 'react';
import { ArgumentChanges } from './ArgumentChanges.js';
import { changesOf } from './edit-args.js';
import { optionLabel, STATUS_LABEL } from './gate-labels.js';
import { formatDateTime } from './time-format.js';
import { useAgentNames } from './use-agent-names.js';

/** How an ended gate ended: outcome, option, who and when, and everything they sent. */
export function DecisionSummary({ gate, nameOf }: { gate: Gate; nameOf(id: string): string }) {
  const decision = gate.decision;
  const agentName = useAgentNames(decision?.delegateTo ? [decision.delegateTo] : []);
  if (decision === null) return <p>This gate is {STATUS_LABEL[gate.status].toLowerCase()}.</p>;
  const edited = decision.editedArgs;
  const rows: [string, ReactNode][] = [
    ['Outcome', edited ? 'Approved with edits' : STATUS_LABEL[gate.status]],
    ['Option', optionLabel(gate, decision.option)],
    ['Decided by', nameOf(decision.decidedBy)],
    ['When', formatDateTime(decision.decidedAt)],
  ];
  if (edited) {
    rows.push([
      'Edited arguments',
      <ArgumentChanges
        key="edited"
        changes={changesOf(gate.action?.args ?? {}, edited)}
        label="What the person changed in the agent's arguments"
      />,
    ]);
  }
  if (decision.reason) rows.push(['Reason', decision.reason]);
  if (decision.answer) rows.push(['Answer', <pre key="answer">{decision.answer}</pre>]);
  if (decision.delegateTo) rows.push(['Delegated to', agentName(decision.delegateTo) ?? decision.delegateTo]);
  if (decision.newLimit !== undefined) rows.push(['New limit', String(decision.newLimit)]);
  const scope = decision.whitelist;
  if (scope) {
    const files = scope.path === null ? 'the finding’s file' : `files matching ${scope.path}`;
    const agents = scope.agents === 'every' ? 'every agent' : 'this gate’s agent only';
    rows.push(['Whitelist scope', `${files}, ${agents}, ${scope.expiresInDays} days`]);
  }
  if (decision.feedback) rows.push(['Feedback', <pre key="feedback">{decision.feedback}</pre>]);
  if (decision.instructions)
    rows.push(['Instructions', <pre key="instructions">{decision.instructions}</pre>]);
  if (decision.affectedArtifacts.length > 0) {
    rows.push([
      'Affected artifacts',
      <ul key="artifacts" className="path-list">
        {decision.affectedArtifacts.map((path) => (
          <li key={path}>
            <code>{path}</code>
          </li>
        ))}
      </ul>,
    ]);
  }
  if (gate.signatureRequired || decision.signature) rows.push(['Signed', decision.signature ? 'Yes' : 'No']);
  return (
    <dl className="gate-facts decision-summary">
      {rows.map(([label, value]) => (
        <div key={label} className="gate-fact">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
