import { GatehouseError } from 'gatehouse-hitl-core';
import type { Services } from './services/index.js';

/**
 * Gives the agent called `name` one live token, on behalf of the earliest admin: creates the agent
 * on first use, otherwise revokes its old tokens (a restart must not pile up live credentials)
 * and issues a new one. For `gatehouse serve --demo`, which runs an agent in the server's process.
 */
export async function issueDemoAgentToken(
  services: Pick<Services, 'users' | 'agents'>,
  name: string,
): Promise<string> {
  const admin = (await services.users.list()).find((user) => user.role === 'admin' && !user.disabled);
  if (!admin) {
    throw new GatehouseError('NOT_FOUND', 'no admin who is not disabled to create the demo agent', {
      field: 'name',
    });
  }
  const existing = (await services.agents.list()).find((agent) => agent.name === name);
  if (!existing) return (await services.agents.create(admin.id, { name })).token;
  await services.agents.revokeTokens(admin.id, existing.id);
  return (await services.agents.issueToken(admin.id, existing.id)).token;
}
