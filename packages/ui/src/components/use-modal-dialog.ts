import { type RefObject, useEffect, useRef } from 'react';

/**
 * Opens the `<dialog>` as a modal while `open` is true and closes it otherwise; focus returns to
 * where it was when the dialog opened.
 */
export function useModalDialog(open: boolean): RefObject<HTMLDialogElement | null> {
  const dialog = useRef<HTMLDialogElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      element.showModal();
    } else if (!open && element.open) {
      element.close();
      returnFocus.current?.focus();
    }
  }, [open]);
  return dialog;
}
