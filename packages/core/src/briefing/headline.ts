import { BUILTIN_GATE_TYPES } from '../gate-types/index.js';
import { revealText } from '../reveal.js';
import type { Gate } from '../schemas.js';

const DEFAULT_TITLES = new Set(BUILTIN_GATE_TYPES.map((definition) => definition.title.toLowerCase()));

// Titles keep hidden characters as markers, so what they are compared with shows them the same way.
const words = (text: string) => revealText(text).toLowerCase().replace(/_/g, ' ').trim();

/**
 * The agent's own title of `gate` when it tells a reviewer more than `headline` (the briefing's
 * summary, which lists show): null when it repeats the headline, the gate type's name, or the tool
 * or operation the server names an untitled gate by.
 * @example agentTitleBeside(gate, 'coder-1 wants to run bash: rm -rf build') // 'Clean the build'
 */
export function agentTitleBeside(
  gate: Pick<Gate, 'title' | 'type' | 'action'>,
  headline: string,
): string | null {
  const title = gate.title.trim();
  const said = words(title);
  const { tool, operation } = gate.action ?? {};
  const repeats =
    said === '' ||
    said === words(headline) ||
    DEFAULT_TITLES.has(said) ||
    said === words(String(gate.type)) ||
    (tool !== undefined && (said === words(tool) || said.startsWith(`${words(tool)} `))) ||
    (operation !== undefined && said === words(operation));
  return repeats ? null : title;
}
