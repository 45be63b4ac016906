import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { payloadText } from 'gatehouse-hitl-protocol/rules';
import { terminalSafe } from './output.js';

/** What came back from the editor: edited arguments, no change, or why they cannot be used. */
export type EditResult =
  | { kind: 'edited'; args: Record<string, unknown> }
  | { kind: 'unchanged' }
  | { kind: 'invalid'; message: string };

/** The editor a person chose: `VISUAL`, else `EDITOR`; null when neither is set. */
export function editorCommand(env: NodeJS.ProcessEnv): string | null {
  const chosen = env.VISUAL?.trim() || env.EDITOR?.trim();
  return chosen ? chosen : null;
}

function parseEdited(text: string, args: Record<string, unknown>): EditResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return {
      kind: 'invalid',
      message: `editedArgs: not valid JSON (${(error as Error).message}); nothing was sent`,
    };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return {
      kind: 'invalid',
      message: 'editedArgs: must be a JSON object of the arguments; nothing was sent',
    };
  }
  const edited = parsed as Record<string, unknown>;
  return JSON.stringify(edited) === JSON.stringify(args)
    ? { kind: 'unchanged' }
    : { kind: 'edited', args: edited };
}

/**
 * Opens the person's editor on the arguments as JSON (the editor runs through the shell, so
 * `code --wait` works) and reads them back.
 */
export function editArgs(editor: string, args: Record<string, unknown>): EditResult {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-edit-'));
  const file = join(dir, 'args.json');
  const original = `${JSON.stringify(args, null, 2)}\n`;
  try {
    writeFileSync(file, original, { mode: 0o600 });
    const run = spawnSync('/bin/sh', ['-c', `${editor} "$1"`, 'sh', file], { stdio: 'inherit' });
    if (run.error !== undefined || run.status !== 0) {
      return { kind: 'invalid', message: `the editor (${terminalSafe(editor)}) failed; nothing was sent` };
    }
    const text = readFileSync(file, 'utf8');
    return text === original ? { kind: 'unchanged' } : parseEdited(text, args);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const shown = (value: unknown): string => terminalSafe(JSON.stringify(value) ?? 'undefined');

/** The changed arguments, one `- name: old` / `+ name: new` pair per changed argument. */
export function argsDiff(original: Record<string, unknown>, edited: Record<string, unknown>): string[] {
  const names = [...new Set([...Object.keys(original), ...Object.keys(edited)])];
  return names.flatMap((name) => {
    const before = original[name];
    const after = edited[name];
    if (JSON.stringify(before) === JSON.stringify(after)) return [];
    const label = terminalSafe(name);
    return [
      ...(name in original ? [`- ${label}: ${shown(before)}`] : []),
      ...(name in edited ? [`+ ${label}: ${shown(after)}`] : []),
    ];
  });
}

/** The hash a signed edited approval signs: the gate's action with the edited arguments. */
export function editedPayloadHash(gate: Pick<Gate, 'action'>, args: Record<string, unknown>): string {
  const action = { ...(gate.action ?? {}), args };
  return createHash('sha256').update(payloadText(action)).digest('hex');
}
