import { HIDDEN_CHARACTER_MARKER, revealHidden } from 'gatehouse-hitl-protocol';
import type { Gate } from './schemas.js';

export type { RevealedText, RevealOptions } from 'gatehouse-hitl-protocol';
export {
  HIDDEN_CHARACTER_MARKER,
  HIDDEN_CHARACTERS_WARNING,
  hiddenCharacterMarker,
  revealHidden,
  revealText,
} from 'gatehouse-hitl-protocol';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

function textHasHidden(text: string): boolean {
  if (PRINTABLE_ASCII.test(text)) return false;
  return revealHidden(text, { multiline: true }).hiddenCount > 0 || HIDDEN_CHARACTER_MARKER.test(text);
}

// Iterative, so no nesting depth can hide a string from the scan; `seen` stops cycles.
function valueHasHidden(root: unknown): boolean {
  const stack: unknown[] = [root];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (textHasHidden(value)) return true;
    } else if (typeof value === 'object' && value !== null && !seen.has(value)) {
      seen.add(value);
      const entries: [string, unknown][] = Array.isArray(value)
        ? value.map((item) => ['', item])
        : Object.entries(value);
      for (const [key, item] of entries) {
        if (textHasHidden(key)) return true;
        stack.push(item);
      }
    }
  }
  return false;
}

/**
 * True when any string or key in `value` holds a hidden character (line breaks and tabs do not count),
 * or the marker that already stands for one, so it answers for raw input and for revealed text alike.
 */
export function containsHiddenCharacters(value: unknown): boolean {
  return valueHasHidden(value);
}

/** True when the gate's action, title or context holds hidden characters (raw or already shown as markers). */
export function gateHasHiddenCharacters(gate: Pick<Gate, 'title' | 'action' | 'context'>): boolean {
  return containsHiddenCharacters([gate.title, gate.action, gate.context]);
}
