import type { Agent } from 'gatehouse-hitl-core';
import { invalidInput } from './gate-input.js';

/** Refuses a delegate decision whose agent does not exist; core has already checked the option. */
export async function assertDelegateExists(
  tx: { getAgent(id: string): Promise<Agent | null> },
  delegateTo: string | undefined,
): Promise<void> {
  if (delegateTo === undefined) return;
  if ((await tx.getAgent(delegateTo)) !== null) return;
  throw invalidInput('delegateTo', `no agent has the id ${delegateTo}; pick one from GET /v1/agents`);
}
