import { type Agent, type AutonomyLevel, GatehouseError, isGatehouseError } from 'gatehouse-hitl-core';
import { generateToken, hashToken } from '../../auth/secrets.js';
import type { AppContext } from '../../context.js';
import { type AuditedTx, commit } from '../commit.js';
import type { Credentials } from './sessions.js';

export interface CreateAgentInput {
  name: string;
  profile?: string | undefined;
  autonomy?: AutonomyLevel | undefined;
}

/** Agents and their API tokens; tokens are shown once and stored only as hashes. */
export interface AgentService {
  create(actorId: string, input: CreateAgentInput): Promise<{ agent: Agent; token: string }>;
  list(): Promise<Agent[]>;
  get(agentId: string): Promise<Agent>;
  issueToken(actorId: string, agentId: string): Promise<{ token: string }>;
  revokeTokens(actorId: string, agentId: string): Promise<{ revoked: number }>;
  /** Changes the autonomy the agent's runs default to and may not go looser than. */
  setAutonomy(actorId: string, agentId: string, autonomy: AutonomyLevel | null): Promise<Agent>;
}

function notFound(agentId: string): GatehouseError {
  return new GatehouseError('NOT_FOUND', `no agent ${agentId}`, { agentId });
}

/**
 * Sets an agent's autonomy in the caller's transaction and audits the change with `data`; the one
 * path for a person's setting and an accepted or revoked autonomy proposal alike.
 */
export async function changeAutonomy(
  tools: AuditedTx,
  change: { actor: string; agentId: string; autonomy: AutonomyLevel | null; data?: Record<string, unknown> },
): Promise<Agent> {
  const { tx, audit } = tools;
  const agent = await tx.getAgent(change.agentId);
  if (!agent || !(await tx.updateAgentAutonomy(change.agentId, change.autonomy)))
    throw notFound(change.agentId);
  await audit({
    kind: 'agent.autonomy_changed',
    actor: change.actor,
    subject: change.agentId,
    data: { from: agent.autonomy, to: change.autonomy, profile: agent.profile, ...change.data },
  });
  return { ...agent, autonomy: change.autonomy };
}

function nameTaken(name: string): GatehouseError {
  return new GatehouseError('CONFLICT', `an agent named ${name} already exists; choose another name`, {
    field: 'name',
    name,
  });
}

async function insertAgentToken(tools: Credentials, agentId: string, actor: string): Promise<string> {
  const { tx } = tools;
  const token = generateToken('gha');
  const tokenHash = hashToken(token);
  await tx.insertToken({
    tokenHash,
    kind: 'agent',
    subjectId: agentId,
    createdAt: tx.now,
    expiresAt: null,
    revokedAt: null,
  });
  await tools.audit({
    kind: 'token.issued',
    actor,
    subject: agentId,
    data: { kind: 'agent', tokenId: tokenHash.slice(0, 12) },
  });
  return token;
}

/** Creates the agent service. */
export function createAgentService(ctx: AppContext): AgentService {
  return {
    async create(actorId, input) {
      const actor = `user:${actorId}`;
      const created = commit(ctx, async (tools) => {
        const { tx, audit } = tools;
        if ((await tx.listAgents()).some((existing) => existing.name === input.name)) {
          throw nameTaken(input.name);
        }
        const agent: Agent = {
          id: ctx.ids.next('agent'),
          name: input.name,
          profile: input.profile ?? null,
          autonomy: input.autonomy ?? null,
          createdAt: tx.now,
          createdBy: actorId,
        };
        await tx.insertAgent(agent);
        await audit({
          kind: 'agent.created',
          actor,
          subject: agent.id,
          data: { name: agent.name, profile: agent.profile, autonomy: agent.autonomy },
        });
        const token = await insertAgentToken(tools, agent.id, actor);
        return { agent, token };
      });
      // Two creations racing past the check meet the unique index; the loser hears which field.
      return created.catch((error: unknown) => {
        throw isGatehouseError(error) && error.code === 'CONFLICT' ? nameTaken(input.name) : error;
      });
    },

    async list() {
      return ctx.store.read((tx) => tx.listAgents());
    },

    async get(agentId) {
      const agent = await ctx.store.read((tx) => tx.getAgent(agentId));
      if (!agent) throw notFound(agentId);
      return agent;
    },

    async issueToken(actorId, agentId) {
      return commit(ctx, async (tools) => {
        if (!(await tools.tx.getAgent(agentId))) throw notFound(agentId);
        return { token: await insertAgentToken(tools, agentId, `user:${actorId}`) };
      });
    },

    async setAutonomy(actorId, agentId, autonomy) {
      return commit(ctx, (tools) => changeAutonomy(tools, { actor: `user:${actorId}`, agentId, autonomy }));
    },

    async revokeTokens(actorId, agentId) {
      return commit(ctx, async ({ tx, audit }) => {
        if (!(await tx.getAgent(agentId))) throw notFound(agentId);
        const revoked = await tx.revokeTokensOf(agentId, 'agent', tx.now);
        await audit({
          kind: 'token.revoked',
          actor: `user:${actorId}`,
          subject: agentId,
          data: { kind: 'agent', revoked },
        });
        return { revoked };
      });
    },
  };
}
