import { type ReactNode, useId } from 'react';
import { useModalDialog } from './use-modal-dialog.js';

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  /** The confirm button's text, e.g. "Stop run". */
  confirmLabel: string;
  /** Red confirm button for actions that cannot be undone. */
  danger?: boolean;
  busy?: boolean;
  /** The server's answer when the action was refused; the dialog stays open. */
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A modal confirmation on the native `<dialog>`: focus moves into it and is trapped there, Escape
 * cancels, and focus returns to where it was when the dialog closes.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, title, children, confirmLabel, danger, busy, error, onConfirm, onCancel } = props;
  const dialog = useModalDialog(open);
  const titleId = useId();
  const bodyId = useId();

  return (
    <dialog
      ref={dialog}
      className="confirm-dialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      <div id={bodyId}>{children}</div>
      {error ? (
        <p className="notice error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="row dialog-actions">
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
        <button type="button" className={danger ? 'danger' : 'primary'} onClick={onConfirm} disabled={busy}>
          {busy ? `${confirmLabel}…` : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
