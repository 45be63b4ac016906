import type { GateOption } from '@gatehouse/core';
import { useEffect, useRef } from 'react';

function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
}

/** The option a key picks, as the terminal inbox does: exact key first, then ignoring case. */
export function optionForKey(options: readonly GateOption[], key: string): GateOption | null {
  if (key.length !== 1) return null;
  return (
    options.find((option) => option.key === key) ??
    options.find((option) => option.key.toLowerCase() === key.toLowerCase()) ??
    null
  );
}

/**
 * Single-key shortcuts for a gate's options (the same keys as the terminal display), active while
 * `enabled` and the focus is not in a text field.
 */
export function useOptionShortcuts(
  options: readonly GateOption[],
  enabled: boolean,
  onChoose: (option: GateOption) => void,
): void {
  const choose = useRef(onChoose);
  choose.current = onChoose;
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTextEntry(event.target)) return;
      const option = optionForKey(options, event.key);
      if (option === null) return;
      // Stops the key from also typing into a field the option opens.
      event.preventDefault();
      choose.current(option);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [options, enabled]);
}
