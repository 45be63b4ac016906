import { type AgentDocument as Agent, agentRoutes } from 'gatehouse-hitl-protocol';
import { choiceOption, stringOption } from '../args.js';
import type { ActionContext, Command } from '../command.js';
import { CliError, isApiError, UsageError } from '../errors.js';
import type { ApiClient } from '../http.js';
import { isoTime, printJson, printTable, terminalSafe } from '../output.js';

const AUTONOMY = ['full', 'review', 'partial', 'guided', 'dependent'] as const;

/** An agent id as given, or the id of the agent with that name. */
export async function agentId(client: ApiClient, idOrName: string): Promise<string> {
  if (idOrName.startsWith('agent_')) return idOrName;
  const { agents } = await client.call(agentRoutes.list);
  const matches = agents.filter((agent) => agent.name === idOrName);
  if (matches.length === 1) return (matches[0] as Agent).id;
  if (matches.length === 0)
    throw new CliError(`no agent is called "${idOrName}"; see \`gatehouse agents list\``);
  throw new CliError(`${matches.length} agents are called "${idOrName}"; give the agent id instead`);
}

/** Agent names by id, for tables; empty when the credential may not list agents (ids are shown then). */
export async function agentNames(client: ApiClient): Promise<Map<string, string>> {
  try {
    const { agents } = await client.call(agentRoutes.list);
    return new Map(agents.map((agent) => [agent.id, agent.name]));
  } catch (error) {
    if (isApiError(error, 'FORBIDDEN') || isApiError(error, 'ROLE_TOO_LOW')) return new Map();
    throw error;
  }
}

function printToken(context: ActionContext, agent: Pick<Agent, 'id' | 'name'>, token: string): void {
  const out = context.io.stdout;
  out.write(`agent ${agent.id} (${terminalSafe(agent.name)})\n`);
  out.write(`token: ${token}\n`);
  context.io.stderr.write(
    'This token is shown only once: store it now (e.g. as GATEHOUSE_TOKEN for the agent).\n',
  );
}

async function create(context: ActionContext): Promise<number> {
  const name = context.positionals[0] as string;
  const profile = stringOption(context.values, 'profile');
  const autonomy = choiceOption(context.values, 'autonomy', AUTONOMY, context.command);
  const response = await context.client().call(agentRoutes.create, {
    body: {
      name,
      ...(profile === undefined ? {} : { profile }),
      ...(autonomy === undefined ? {} : { autonomy }),
    },
  });
  if (context.json) printJson(context.io, response);
  else printToken(context, response.agent, response.token);
  return 0;
}

async function token(context: ActionContext): Promise<number> {
  const client = context.client();
  const id = await agentId(client, context.positionals[0] as string);
  if (context.values.revoke) {
    const response = await client.call(agentRoutes.revokeTokens, { params: { id } });
    if (context.json) printJson(context.io, response);
    else context.io.stdout.write(`${id}: ${response.revoked} token(s) revoked\n`);
    return 0;
  }
  const response = await client.call(agentRoutes.issueToken, { params: { id } });
  if (context.json) printJson(context.io, response);
  else printToken(context, { id, name: context.positionals[0] as string }, response.token);
  return 0;
}

async function autonomy(context: ActionContext): Promise<number> {
  const client = context.client();
  const id = await agentId(client, context.positionals[0] as string);
  const wanted = context.positionals[1] as string;
  if (wanted !== 'profile' && !(AUTONOMY as readonly string[]).includes(wanted)) {
    throw new UsageError(
      `the level must be one of ${AUTONOMY.join(', ')} or profile (got "${wanted}")`,
      context.command,
    );
  }
  const response = await client.call(agentRoutes.setAutonomy, {
    params: { id },
    body: { autonomy: wanted === 'profile' ? null : (wanted as (typeof AUTONOMY)[number]) },
  });
  if (context.json) printJson(context.io, response);
  else
    context.io.stdout.write(
      `${id}: runs default to and may go no looser than ${response.agent.autonomy ?? "its profile's level"}\n`,
    );
  return 0;
}

async function list(context: ActionContext): Promise<number> {
  const response = await context.client().call(agentRoutes.list);
  if (context.json) printJson(context.io, response);
  else {
    printTable(
      context.io.stdout,
      ['ID', 'NAME', 'PROFILE', 'AUTONOMY', 'CREATED'],
      response.agents.map((a) => [
        a.id,
        a.name,
        a.profile ?? '-',
        a.autonomy ?? '(from profile)',
        isoTime(a.createdAt),
      ]),
      'no agents',
    );
  }
  return 0;
}

/** `gatehouse agents`: register agents and issue their tokens. */
export const agentsCommand: Command = {
  name: 'agents',
  summary: 'Create agents and issue or revoke their tokens',
  actions: [
    {
      name: 'create',
      summary: 'Register an agent and print its token (shown once)',
      args: '<name>',
      positionals: { min: 1, max: 1 },
      options: {
        profile: {
          type: 'string',
          value: '<profile>',
          description: 'Expert type that picks the default autonomy, e.g. coder',
        },
        autonomy: {
          type: 'string',
          value: '<level>',
          description: `Default autonomy: ${AUTONOMY.join(', ')}`,
        },
      },
      examples: ['gatehouse agents create build-bot --profile coder'],
      run: create,
    },
    {
      name: 'token',
      summary: "Issue a new token for an agent (or revoke all of the agent's tokens)",
      args: '<agent-id-or-name>',
      positionals: { min: 1, max: 1 },
      options: {
        revoke: { type: 'boolean', description: 'Revoke every token of the agent instead; applies at once' },
      },
      run: token,
    },
    {
      name: 'autonomy',
      summary: "Change the autonomy an agent's runs default to and may not go looser than",
      args: '<agent-id-or-name> <level>',
      positionals: { min: 2, max: 2 },
      details: `<level> is one of ${AUTONOMY.join(', ')}, or profile to let the agent's profile decide. Admins only.`,
      examples: ['gatehouse agents autonomy build-bot guided'],
      run: autonomy,
    },
    { name: 'list', summary: 'List the registered agents', run: list },
  ],
};
