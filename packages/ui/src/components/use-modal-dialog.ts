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
      // Back where it was; when that was the page itself, nothing keeps the focus (the browser may
      // otherwise pick a button, where the next Enter would press it).
      const back = returnFocus.current;
      if (back !== null && back !== document.body && back.isConnected) back.focus();
      else if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    }
  }, [open]);
  return dialog;
}
