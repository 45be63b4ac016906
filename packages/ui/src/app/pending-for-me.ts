import type { Role } from 'gatehouse-hitl-core';
import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { atLeast } from './roles.js';

/** Whether the gate waits for this person: their role is high enough and it is not assigned to someone else. */
export function isForMe(gate: Pick<Gate, 'minRole' | 'assignees'>, me: { id: string; role: Role }): boolean {
  if (!atLeast(me.role, gate.minRole)) return false;
  return gate.assignees.length === 0 || gate.assignees.includes(me.id);
}

/** The gates for me now that were not for me before: each deserves one notification. */
export function newlyForMe<G extends Gate>(before: ReadonlySet<string>, now: readonly G[]): G[] {
  return now.filter((gate) => !before.has(gate.id));
}
