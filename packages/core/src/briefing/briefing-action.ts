import { revealText } from '../reveal.js';
import { truncateToWidth } from '../sanitize.js';
import type { Gate } from '../schemas.js';
import type { ProposedAction } from './briefing.js';
import { type Context, describe, isRecord, pick, preview, readText } from './briefing-fields.js';

/** Argument names that say most about a call, shown first. */
export const KEY_ARGS = ['command', 'cmd', 'path', 'filePath', 'file', 'url', 'query', 'sql'];
const ARG_PREVIEW_COLUMNS = 80;
const ARGS_SUMMARY_COLUMNS = 300;

/** The arguments of the gate's action, or of `context.args` when the gate carries no action. */
export function actionArgs(gate: Gate, context: Context): Context {
  if (isRecord(gate.action) && isRecord(gate.action.args)) return gate.action.args;
  const args = pick(context, 'args', 'arguments');
  return isRecord(args) ? args : {};
}

/** `command=rm -rf build, force=yes`: key arguments first, each value cut to a short preview. */
export function summarizeArgs(args: Context, skip: readonly string[] = []): string {
  const keys = Object.keys(args).filter((key) => !skip.includes(key));
  const ordered = [
    ...KEY_ARGS.filter((key) => keys.includes(key)),
    ...keys.filter((k) => !KEY_ARGS.includes(k)),
  ];
  const pairs = ordered
    .map((key) => {
      const value = preview(args[key], ARG_PREVIEW_COLUMNS);
      return value === null ? null : `${revealText(key)}=${value}`;
    })
    .filter((pair): pair is string => pair !== null);
  return truncateToWidth(pairs.join(', '), ARGS_SUMMARY_COLUMNS);
}

/** The tool, operation and arguments of the gate, or null when it is not about one call. */
export function readProposedAction(gate: Gate, context: Context): ProposedAction | null {
  const action = isRecord(gate.action) ? gate.action : null;
  const args = actionArgs(gate, context);
  const tool = describe(action?.tool) ?? readText(context, 'tool', 'toolName');
  const operation = describe(action?.operation) ?? readText(context, 'operation');
  if (tool === null && operation === null && Object.keys(args).length === 0) return null;
  return { tool, operation, argsSummary: summarizeArgs(args) };
}
