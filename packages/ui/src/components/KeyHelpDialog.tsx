import { keyHelpLines } from 'gatehouse-hitl-core';
import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { useId } from 'react';
import { useModalDialog } from './use-modal-dialog.js';

/** Splits `a  Approve: …` into its key and its text. */
function splitLine(line: string): { key: string; text: string } {
  const at = line.indexOf('  ');
  return at === -1 ? { key: '', text: line } : { key: line.slice(0, at), text: line.slice(at + 2) };
}

/** The keys of this gate in the one key map, as a modal list; Escape or Close closes it. */
export function KeyHelpDialog({
  gate,
  open,
  onClose,
}: {
  gate: Pick<Gate, 'options' | 'action'>;
  open: boolean;
  onClose(): void;
}) {
  const dialog = useModalDialog(open);
  const titleId = useId();
  return (
    <dialog
      ref={dialog}
      className="confirm-dialog key-help"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId}>Keys</h2>
      <ul className="key-help-list">
        {open &&
          keyHelpLines(gate).map((line) => {
            const { key, text } = splitLine(line);
            return (
              <li key={line}>
                <kbd>{key}</kbd> {text}
              </li>
            );
          })}
      </ul>
      <p className="muted small">Keys work while the focus is not in a text field.</p>
      <div className="row dialog-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
