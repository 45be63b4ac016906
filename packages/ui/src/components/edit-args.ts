import { payloadText, revealText } from 'gatehouse-hitl-protocol';

/** How an argument is edited: a one-line text field, a multi-line text (a diff), or JSON. */
export type ArgumentKind = 'line' | 'text' | 'json';

const TEXT_NAMES = new Set(['diff', 'patch', 'content', 'body', 'script']);

/** The editor an argument gets: the command and other one-line strings as text fields, diffs as text areas, the rest as JSON. */
export function argumentKind(name: string, value: unknown): ArgumentKind {
  if (typeof value !== 'string') return 'json';
  return TEXT_NAMES.has(name) || value.includes('\n') ? 'text' : 'line';
}

/** The text an argument starts from in its editor. */
export function draftOf(name: string, value: unknown): string {
  return argumentKind(name, value) === 'json' ? JSON.stringify(value, null, 2) : String(value);
}

/** The edited arguments, or the errors by field (`editedArgs.<name>`). */
export function parseDrafts(
  original: Record<string, unknown>,
  drafts: Record<string, string>,
): { args: Record<string, unknown>; errors: Record<string, string> } {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const [name, value] of Object.entries(original)) {
    const draft = drafts[name] ?? draftOf(name, value);
    if (argumentKind(name, value) !== 'json') {
      args[name] = draft;
      continue;
    }
    try {
      args[name] = JSON.parse(draft);
    } catch (error) {
      errors[name] = `editedArgs.${name}: not valid JSON (${(error as Error).message})`;
    }
  }
  return { args, errors };
}

/** One changed argument: its name and both values as shown (hidden characters as markers). */
export interface ArgumentChange {
  name: string;
  before: string;
  after: string;
}

const shown = (value: unknown) =>
  value === undefined
    ? '(not set)'
    : revealText(typeof value === 'string' ? value : JSON.stringify(value, null, 2), { multiline: true });

/** The arguments the edit changes, original against edited. */
export function changesOf(
  original: Record<string, unknown>,
  edited: Record<string, unknown>,
): ArgumentChange[] {
  return [...new Set([...Object.keys(original), ...Object.keys(edited)])]
    .filter((name) => JSON.stringify(original[name]) !== JSON.stringify(edited[name]))
    .map((name) => ({ name, before: shown(original[name]), after: shown(edited[name]) }));
}

/** SHA-256 (hex) of the edited action: what a signed edited approval signs. */
export async function editedPayloadHash(
  action: { tool?: string | undefined; operation?: string | undefined },
  args: Record<string, unknown>,
): Promise<string> {
  const bytes = new TextEncoder().encode(payloadText({ ...action, args }));
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
