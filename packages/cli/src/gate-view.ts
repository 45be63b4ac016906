import type { Gate, KeyBinding } from 'gatehouse-hitl-core';
import type { StandingScopes } from 'gatehouse-hitl-protocol';
import type { Io } from './command.js';
import { printFields } from './output.js';

/** Core's terminal display functions, loaded on first use. */
export interface GateDisplay {
  /** The box-drawn display of a gate for a terminal `width` columns wide, led by the server's `headline` when given. */
  render(
    gate: Gate,
    options: { width: number | undefined; now: number; headline?: string | undefined },
  ): string;
  /** What `key` does on the gate in the one key map, or null. */
  bindingForKey(gate: Gate, key: string): KeyBinding | null;
  /** One line per key of the gate, then `?`. */
  helpLines(gate: Gate): string[];
}

/** Loads core's display (core takes a while to import, and most commands never need it). */
export async function loadGateDisplay(): Promise<GateDisplay> {
  const { bindingForKey, formatGateDisplay, keyHelpLines } = await import('gatehouse-hitl-core');
  return {
    render: (gate, options) =>
      formatGateDisplay(gate, { width: options.width || 80, now: options.now, headline: options.headline }),
    bindingForKey,
    helpLines: keyHelpLines,
  };
}

/** What `--always` may remember on a pending gate, the suggestion first, or why it is not offered. */
function alwaysLine(scopes: StandingScopes): string {
  if (scopes.refusal !== null) return `not offered: ${scopes.refusal}`;
  return scopes.options
    .map((option, i) => `${option.description}${i === 0 ? ' (suggested)' : ''}`)
    .join(', ');
}

/** Prints a gate's display, what "approve always" may cover while it waits, and its decision once it has one. */
export async function showGate(
  io: Io,
  body: { gate: Gate; headline?: string; standingScopes?: StandingScopes | null },
): Promise<void> {
  const { gate } = body;
  const display = await loadGateDisplay();
  const options = { width: io.stdout.columns, now: io.now(), headline: body.headline };
  io.stdout.write(`${display.render(gate, options)}\n`);
  if (gate.status === 'pending' && body.standingScopes) {
    io.stdout.write('\n');
    printFields(io.stdout, [['Always', alwaysLine(body.standingScopes)]]);
  }
  const decision = gate.decision;
  if (!decision) return;
  io.stdout.write('\n');
  printFields(io.stdout, [
    ['Decision', `${decision.option} (${decision.outcome})`],
    ['By', decision.decidedBy],
    ['At', new Date(decision.decidedAt).toISOString()],
    ['Reason', decision.reason],
    ['Feedback', decision.feedback],
    ['Instructions', decision.instructions],
    ['Artifacts', decision.affectedArtifacts.join(', ')],
    ['Signed', decision.signature ? 'yes' : undefined],
  ]);
}
