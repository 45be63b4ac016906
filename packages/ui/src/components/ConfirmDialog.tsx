import { type ReactNode, useEffect, useId, useRef } from 'react';
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
  /** Open on the confirm button, so Enter confirms; else on Cancel. */
  focusConfirm?: boolean;
  /** The server's answer when the action was refused; the dialog stays open. */
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A modal confirmation on the native `<dialog>`: focus moves into it (Cancel, or the confirm button
 * with `focusConfirm`) and is trapped there, Escape cancels, and focus returns to where it was when
 * the dialog closes.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { open, title, children, confirmLabel, danger, busy, error, onConfirm, onCancel, focusConfirm } =
    props;
  const dialog = useModalDialog(open);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();
  // Runs after the modal opened, which put the focus on its first button (Cancel).
  useEffect(() => {
    if (open && focusConfirm) confirmButton.current?.focus();
  }, [open, focusConfirm]);

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
        <button
          ref={confirmButton}
          type="button"
          className={danger ? 'danger' : 'primary'}
          onClick={onConfirm}
          disabled={busy}
        >
          {busy ? `${confirmLabel}…` : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
