import type { ArgumentChange } from './edit-args.js';
import { LineDiff } from './LineDiff.js';

function OneLineChange({ change }: { change: ArgumentChange }) {
  return (
    <>
      <pre className="diff-removed">
        <span aria-hidden="true">- </span>
        <span className="visually-hidden">was: </span>
        {change.before}
      </pre>
      <pre className="diff-added">
        <span aria-hidden="true">+ </span>
        <span className="visually-hidden">becomes: </span>
        {change.after}
      </pre>
    </>
  );
}

/**
 * Each changed argument, original against edited: a multi-line text as a line diff (only the lines
 * that changed are marked), a one-line value as its old and new value.
 */
export function ArgumentChanges({ changes, label }: { changes: readonly ArgumentChange[]; label: string }) {
  return (
    <ul className="args-diff" aria-label={label}>
      {changes.map((change) => (
        <li key={change.name}>
          <strong>{change.name}</strong>
          {change.before.includes('\n') || change.after.includes('\n') ? (
            <LineDiff before={change.before} after={change.after} label={change.name} />
          ) : (
            <OneLineChange change={change} />
          )}
        </li>
      ))}
    </ul>
  );
}
