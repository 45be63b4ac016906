import { HIDDEN_CHARACTER_MARKER, revealText } from 'gatehouse-hitl-protocol';

/** Slack reads `&`, `<` and `>` as markup (links, mentions); everything shown as text escapes them. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text from an agent, hidden characters shown as ⟨U+…⟩, escaped and cut to fit a Slack field. */
export function agentText(text: string, max: number): string {
  const shown = revealText(text, { multiline: true });
  const cut = shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
  return escapeMrkdwn(cut);
}

/** Plain text (Slack does not format it), still with hidden characters marked, cut to fit. */
export function plainAgentText(text: string, max: number): string {
  const shown = revealText(text, { multiline: true });
  return shown.length > max ? `${shown.slice(0, max - 1)}…` : shown;
}

/** True when text already shows a hidden character as a marker. */
export function showsHidden(text: string): boolean {
  return HIDDEN_CHARACTER_MARKER.test(revealText(text, { multiline: true }));
}
