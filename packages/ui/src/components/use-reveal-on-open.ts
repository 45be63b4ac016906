import { type RefObject, useEffect, useRef } from 'react';

const FIELDS =
  'input:not([type="hidden"]):not([disabled]), textarea:not([disabled]), select:not([disabled]), button:not([disabled])';

/** The first field of `root` a person fills in; of a radio group, the chosen radio. */
function firstField(root: HTMLElement): HTMLElement | null {
  const first = root.querySelector<HTMLElement>(FIELDS);
  if (first instanceof HTMLInputElement && first.type === 'radio' && !first.checked && first.name) {
    const group = root.querySelectorAll<HTMLInputElement>(
      `input[type="radio"][name="${CSS.escape(first.name)}"]`,
    );
    return [...group].find((radio) => radio.checked && !radio.disabled) ?? first;
  }
  return first;
}

/**
 * When `open` turns true (or the element mounts open), scrolls the element into view and puts the
 * focus in its first field, so what is typed next lands in the form that just opened.
 */
export function useRevealOnOpen<T extends HTMLElement>(open: boolean): RefObject<T | null> {
  const element = useRef<T>(null);
  useEffect(() => {
    const root = element.current;
    if (!open || root === null) return;
    root.scrollIntoView({ block: 'nearest' });
    firstField(root)?.focus();
  }, [open]);
  return element;
}
