import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { atLeast, ROLE_LABEL } from '../../app/roles.js';
import type { User } from '../../app/session.js';

/** Why `user` cannot decide `gate` (the server's own checks, said up front), or null. */
export function decideBlock(gate: Gate, user: User, nameOf: (id: string) => string): string | null {
  if (user.role === 'viewer') return "Viewers can't decide gates.";
  if (!atLeast(user.role, gate.minRole)) {
    return `This gate needs the role ${ROLE_LABEL[gate.minRole]} or higher to decide; you are ${ROLE_LABEL[user.role]}.`;
  }
  if (gate.assignees.length > 0 && !gate.assignees.includes(user.id)) {
    return `This gate is assigned to ${gate.assignees.map(nameOf).join(', ')}; only they can decide it.`;
  }
  if (gate.separationOfDuties && (gate.requestedBy === user.id || gate.requestedBy === `user:${user.id}`)) {
    return 'You asked for this gate; someone else has to decide it.';
  }
  return null;
}

/** Why `user` may reject but not approve the gate (they own the agent that asked), or null. */
export function approveBlock(separatedOwner: string | null, user: User): string | null {
  if (separatedOwner !== user.id) return null;
  return 'You own the agent that asked, so separation of duties needs someone else to approve this gate; you may still reject it.';
}

/** Why `user` cannot snooze or extend `gate`, or null. */
export function extendBlock(gate: Gate, user: User): string | null {
  if (user.role === 'viewer') return "Viewers can't extend gates.";
  if (!atLeast(user.role, gate.minRole)) {
    return `Extending this gate needs the role ${ROLE_LABEL[gate.minRole]} or higher.`;
  }
  if (gate.timeoutAt === null) {
    return 'This gate waits until someone decides; a deadline would let it end by itself, so none can be added.';
  }
  return null;
}

/** Why `user` cannot assign or delegate `gate`, or null. */
export function assignBlock(gate: Gate, user: User): string | null {
  if (user.role === 'viewer') return "Viewers can't assign gates.";
  if (atLeast(user.role, 'tech_lead') || gate.assignees.includes(user.id)) return null;
  return 'Assigning needs the role Tech lead or higher, or being one of the gate’s assignees.';
}
