import type { KeyboardEvent } from 'react';

/** Ctrl+Enter, or Cmd+Enter on a Mac: send what is being typed. */
export function isSubmitKey(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>): boolean {
  return event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.altKey;
}

/** An onKeyDown handler that submits the form the key was pressed in on Ctrl+Enter or Cmd+Enter. */
export function submitFormOnCtrlEnter(event: KeyboardEvent<HTMLElement>): void {
  if (!isSubmitKey(event) || !(event.target instanceof Element)) return;
  const form = event.target.closest('form');
  if (form === null) return;
  event.preventDefault();
  form.requestSubmit();
}
