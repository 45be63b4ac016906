import type { AgentsRepo } from 'gatehouse-hitl-store';
import type { GateDeps } from './gate-common.js';

const MAX_PROFILES = 10_000;

/** The agent's profile, read once per agent. */
export async function agentProfile(deps: GateDeps, tx: AgentsRepo, agentId: string): Promise<string | null> {
  const profiles = deps.agentProfiles;
  const known = profiles.get(agentId);
  if (known !== undefined) return known;
  const agent = await tx.getAgent(agentId);
  if (agent === null) return null;
  if (profiles.size >= MAX_PROFILES) profiles.clear();
  profiles.set(agentId, agent.profile);
  return agent.profile;
}
