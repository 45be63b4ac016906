import type { Agent, Gate } from 'gatehouse-hitl-core';
import type { Store } from 'gatehouse-hitl-store';
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

/** The agents a person may hand `gate`'s task to, for a channel's picker: every agent but the one that asked. */
export async function delegateChoices(store: Store, gate: Gate): Promise<{ id: string; name: string }[]> {
  const agents = await store.read((tx) => tx.listAgents());
  return agents.filter((agent) => agent.id !== gate.agentId).map(({ id, name }) => ({ id, name }));
}
