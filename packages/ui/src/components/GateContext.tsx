import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { revealText } from 'gatehouse-hitl-protocol';
import type { Ref } from 'react';
import { Revealed } from './Revealed.js';

interface FailedSteer {
  instructions: string | null;
  reason: string | null;
  previousGateId: string | null;
}

function failedSteerOf(context: Record<string, unknown>): FailedSteer | null {
  const value = context.failedSteer;
  if (typeof value !== 'object' || value === null) return null;
  const record = value as Record<string, unknown>;
  const text = (key: string) =>
    typeof record[key] === 'string' ? revealText(record[key] as string, { multiline: true }) : null;
  return {
    instructions: text('instructions'),
    reason: text('reason'),
    previousGateId: text('previousGateId'),
  };
}

/** Artifacts, recovery history, an earlier steer the agent could not apply, and the agent's whole context. */
export function GateContext({
  gate,
  artifacts,
  recoveryHistory,
  contextOpen,
  onContextToggle,
  contextRef,
}: {
  gate: Gate;
  artifacts: readonly string[];
  recoveryHistory: readonly string[];
  contextOpen: boolean;
  onContextToggle(open: boolean): void;
  contextRef?: Ref<HTMLDetailsElement>;
}) {
  const failed = failedSteerOf(gate.context);
  const hasContext = Object.keys(gate.context).length > 0;
  const showHistory =
    recoveryHistory.length > 0 ||
    gate.type === 'recovery_escalation' ||
    gate.options.some((option) => option.id === 'history');
  return (
    <section className="card" aria-labelledby="context-heading">
      <h2 id="context-heading" tabIndex={-1}>
        Context
      </h2>
      {failed && (
        <div className="notice warn">
          <p>
            <strong>An earlier steer could not be applied</strong>
            {failed.previousGateId ? ` (gate ${failed.previousGateId})` : ''}.
          </p>
          {failed.instructions && <pre>{failed.instructions}</pre>}
          {failed.reason && <p>The agent said: {failed.reason}</p>}
        </div>
      )}
      <h3>Artifacts</h3>
      {artifacts.length === 0 ? (
        <p className="muted">No artifacts.</p>
      ) : (
        <ul className="path-list">
          {artifacts.map((artifact) => (
            <li key={artifact}>
              <code>
                <Revealed text={artifact} multiline={false} />
              </code>
            </li>
          ))}
        </ul>
      )}
      {showHistory && (
        <>
          <h3 id="history-heading" tabIndex={-1}>
            {gate.type === 'recovery_escalation' ? 'Recovery history' : 'History'}
          </h3>
          {recoveryHistory.length === 0 ? (
            <p className="muted">The agent sent no history.</p>
          ) : (
            <ol>
              {recoveryHistory.map((entry, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: history entries are in order and never move
                <li key={index}>{entry}</li>
              ))}
            </ol>
          )}
        </>
      )}
      <details
        ref={contextRef}
        className="raw-context"
        open={contextOpen}
        onToggle={(event) => onContextToggle(event.currentTarget.open)}
      >
        <summary>All context from the agent</summary>
        {hasContext ? (
          <pre>
            <Revealed text={JSON.stringify(gate.context, null, 2)} />
          </pre>
        ) : (
          <p className="muted">The agent sent no context.</p>
        )}
      </details>
    </section>
  );
}
