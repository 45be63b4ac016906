import {
  type AgentDocument as Agent,
  type AutonomyLevel,
  agentRoutes,
  type CreateAgentResponse,
  type LoginLinkResponse,
  type Role,
  type UserDocument,
  userRoutes,
} from 'gatehouse-hitl-protocol';
import { callApi } from './client.js';

export type { Agent, AutonomyLevel, Role };

/** Autonomy levels, from most to least autonomous. */
export const AUTONOMY_LEVELS: readonly AutonomyLevel[] = ['full', 'review', 'partial', 'guided', 'dependent'];
export const ROLES: readonly Role[] = ['viewer', 'developer', 'tech_lead', 'admin'];

export type Person = UserDocument;

export async function listAgents(signal?: AbortSignal): Promise<Agent[]> {
  const answer = await callApi(agentRoutes.list, {}, signal);
  return answer.agents;
}

/** Registers an agent; the answer carries its first token, shown only this once. */
export function createAgent(input: {
  name: string;
  profile?: string;
  autonomy?: AutonomyLevel;
}): Promise<CreateAgentResponse> {
  return callApi(agentRoutes.create, { body: input });
}

/** Issues another token for the agent; shown only this once. */
export function issueAgentToken(agentId: string): Promise<{ token: string }> {
  return callApi(agentRoutes.issueToken, { params: { id: agentId } });
}

/** Revokes every token of the agent; its requests fail from the next one on. */
export function revokeAgentTokens(agentId: string): Promise<{ revoked: number }> {
  return callApi(agentRoutes.revokeTokens, { params: { id: agentId } });
}

export async function listUsers(signal?: AbortSignal): Promise<Person[]> {
  const answer = await callApi(userRoutes.list, {}, signal);
  return answer.users;
}

export async function createUser(input: { name: string; role: Role; password: string }): Promise<Person> {
  const answer = await callApi(userRoutes.create, { body: input });
  return answer.user;
}

/** Changes a person's role or disables them (which ends every session of theirs). */
export async function updateUser(id: string, change: { role?: Role; disabled?: boolean }): Promise<Person> {
  const answer = await callApi(userRoutes.update, { params: { id }, body: change });
  return answer.user;
}

/** A one-time login link (15 minutes) for a person, e.g. one who signed out without a password. */
export function issueLoginLink(id: string): Promise<LoginLinkResponse> {
  return callApi(userRoutes.issueLoginLink, { params: { id } });
}
