import { bindingForKey, HELP_KEY, type KeyBinding } from 'gatehouse-hitl-core';
import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { useEffect, useRef } from 'react';

function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
}

/**
 * Single-key shortcuts in core's one key map (the same keys as the terminal inbox), active while
 * `enabled` and the focus is not in a text field; `?` asks for the key list.
 */
export function useOptionShortcuts(
  gate: Pick<Gate, 'options' | 'action'>,
  enabled: boolean,
  handlers: { onChoose(binding: KeyBinding): void; onHelp(): void },
): void {
  const current = useRef(handlers);
  current.current = handlers;
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.repeat || event.ctrlKey || event.metaKey || event.altKey) return;
      if (isTextEntry(event.target)) return;
      if (event.key === HELP_KEY) {
        event.preventDefault();
        current.current.onHelp();
        return;
      }
      const binding = bindingForKey(gate, event.key);
      if (binding === null) return;
      // Stops the key from also typing into a field the option opens.
      event.preventDefault();
      current.current.onChoose(binding);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [gate, enabled]);
}
