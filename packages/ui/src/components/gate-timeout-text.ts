import type { Role } from 'gatehouse-hitl-core';
import type { GateDocument as Gate } from 'gatehouse-hitl-protocol';
import { ROLE_LABEL } from '../app/roles.js';

const RANK: Record<Role, number> = { viewer: 0, developer: 1, tech_lead: 2, admin: 3 };

/** What the deadline does, as the server will apply it: `deny`, `escalate to Tech lead`, `proceed`. */
export function timeoutThen(gate: Pick<Gate, 'timeoutAction' | 'escalationChain' | 'minRole'>): string {
  switch (gate.timeoutAction) {
    case 'deny':
      return 'deny';
    case 'proceed':
      return 'proceed (the agent goes ahead on its own)';
    case 'escalate': {
      const next = gate.escalationChain.find((role) => RANK[role] > RANK[gate.minRole]);
      return next === undefined
        ? 'deny (no higher role left to escalate to)'
        : `escalate to ${ROLE_LABEL[next].toLowerCase()}`;
    }
  }
}
