import type { Gate, GateOption } from '@gatehouse/core';
import type { Io } from './command.js';
import { printFields } from './output.js';

/** Core's terminal display functions, loaded on first use. */
export interface GateDisplay {
  /** The box-drawn display of a gate for a terminal `width` columns wide. */
  render(gate: Gate, options: { width: number | undefined; now: number }): string;
  /** The gate's option on `key`, or null. */
  optionForKey(gate: Gate, key: string): GateOption | null;
}

/** Loads core's display (core takes a while to import, and most commands never need it). */
export async function loadGateDisplay(): Promise<GateDisplay> {
  const { formatGateDisplay, optionForKey } = await import('@gatehouse/core');
  return {
    render: (gate, options) => formatGateDisplay(gate, { width: options.width || 80, now: options.now }),
    optionForKey: (gate, key) => optionForKey(gate, key) ?? null,
  };
}

/** Prints a gate's display, and its decision once it has one. */
export async function showGate(io: Io, body: { gate: Gate }): Promise<void> {
  const { gate } = body;
  const display = await loadGateDisplay();
  io.stdout.write(`${display.render(gate, { width: io.stdout.columns, now: io.now() })}\n`);
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
