import { steerOptionOf } from 'gatehouse-hitl-core';
import type { GateDocument as Gate, GateListResponse, RiskLevel, RuleScope } from 'gatehouse-hitl-protocol';
import { GATE_STATUSES as STATUSES } from 'gatehouse-hitl-protocol/rules';
import { choiceOption, intOption, listOption, requiredOption, stringOption } from '../args.js';
import type { ActionContext, Command } from '../command.js';
import {
  type DecisionBody,
  describeDecision,
  lostRaceMessage,
  postDecision,
  readSigningKey,
  signDecision,
  whoAmI,
} from '../decide.js';
import { CliError, isApiError } from '../errors.js';
import { showGate } from '../gate-view.js';
import type { ApiClient } from '../http.js';
import { printJson, printTable, relativeTime } from '../output.js';

// Plain lists: the CLI loads no zod at start-up (the hook runs before every tool call).
const RISKS = ['low', 'medium', 'high', 'critical'] as const satisfies readonly RiskLevel[];
const SCOPES = ['run', 'agent', 'global'] as const satisfies readonly RuleScope[];

/** A page of gates as `GET /v1/gates` answers. */
export type GatePage = GateListResponse;

/** Fetches gates with the given filters. */
export function listGates(
  client: ApiClient,
  query: Record<string, string | number | undefined>,
): Promise<GatePage> {
  return client.get<GatePage>('/v1/gates', query);
}

async function list(context: ActionContext): Promise<number> {
  const { values, command, io } = context;
  const page = await listGates(context.client(), {
    status: choiceOption(values, 'status', STATUSES, command),
    type: stringOption(values, 'type'),
    risk: choiceOption(values, 'risk', RISKS, command),
    agentId: stringOption(values, 'agent'),
    runId: stringOption(values, 'run'),
    assignee: stringOption(values, 'assignee'),
    limit: intOption(values, 'limit', { min: 1, max: 500, command }),
    cursor: stringOption(values, 'cursor'),
  });
  if (context.json) {
    printJson(io, page);
    return 0;
  }
  const now = io.now();
  printTable(
    io.stdout,
    ['ID', 'TYPE', 'RISK', 'STATUS', 'AGENT', 'DEADLINE', 'TITLE'],
    page.items.map((gate) => [
      gate.id,
      gate.type,
      gate.risk,
      gate.status,
      gate.agentId ?? '-',
      gate.status === 'pending' ? relativeTime(gate.timeoutAt, now) : '-',
      gate.title,
    ]),
    'no gates',
  );
  if (page.nextCursor) io.stdout.write(`more: --cursor ${page.nextCursor}\n`);
  return 0;
}

async function show(context: ActionContext): Promise<number> {
  const id = context.positionals[0] as string;
  const body = await context
    .client()
    .get<{ gate: Gate; briefing?: unknown }>(`/v1/gates/${encodeURIComponent(id)}`);
  if (context.json) printJson(context.io, body);
  else await showGate(context.io, body);
  return 0;
}

async function decisionBody(context: ActionContext, client: ApiClient, id: string): Promise<DecisionBody> {
  const { values, command } = context;
  const body: DecisionBody = { option: requiredOption(values, 'option', command) };
  const reason = stringOption(values, 'reason');
  if (reason !== undefined) body.reason = reason;
  const feedback = stringOption(values, 'feedback');
  if (feedback !== undefined) body.feedback = feedback;
  const instructions = stringOption(values, 'instructions');
  if (instructions !== undefined) body.instructions = instructions;
  const artifacts = listOption(values, 'artifact');
  if (artifacts.length > 0) body.affectedArtifacts = artifacts;
  const scope = choiceOption(values, 'remember', SCOPES, command);
  const ttlSeconds = intOption(values, 'remember-ttl', { min: 60, max: 2_592_000, command });
  if (scope !== undefined) body.remember = { scope, ...(ttlSeconds === undefined ? {} : { ttlSeconds }) };
  if (body.option === 'steer') await confirmSteer(context, client, id, body);
  const keyFile = stringOption(values, 'sign-key');
  if (keyFile !== undefined) {
    const key = readSigningKey(keyFile);
    const { gate } = await client.get<{ gate: Gate }>(`/v1/gates/${encodeURIComponent(id)}`);
    body.signature = await signDecision(key, gate, body);
  }
  return body;
}

/** A steer that the gate records as an approval is sent only with --confirm-approval, said before sending. */
async function confirmSteer(context: ActionContext, client: ApiClient, id: string, body: DecisionBody) {
  const { gate } = await client.get<{ gate: Gate }>(`/v1/gates/${encodeURIComponent(id)}`);
  const steer = steerOptionOf(gate);
  if (steer?.mapping !== 'steer_as_approval') return;
  if (context.values['confirm-approval'] !== true) {
    throw new CliError(
      `gate ${id} (${gate.type}) cannot be steered: a steer is recorded as "${steer.option.id}" with your instructions as feedback. ` +
        'Add --confirm-approval to send it, or choose another option.',
    );
  }
  body.confirmApproval = true;
}

async function decide(context: ActionContext): Promise<number> {
  const id = context.positionals[0] as string;
  const client = context.client();
  const body = await decisionBody(context, client, id);
  try {
    const response = await postDecision(client, id, body);
    if (context.json) printJson(context.io, response);
    else context.io.stdout.write(`${describeDecision(response)}\n`);
    return 0;
  } catch (error) {
    if (!isApiError(error, 'GATE_ALREADY_DECIDED')) throw error;
    const lost = lostRaceMessage(error, await whoAmI(client)) as string;
    context.io.stderr.write(`${lost}\n`);
    return 1;
  }
}

/** `gatehouse gates`: list, show and decide gates. */
export const gatesCommand: Command = {
  name: 'gates',
  summary: 'List, show and decide gates',
  actions: [
    {
      name: 'list',
      summary: 'List gates, filtered by status, type, risk, agent, run or assignee',
      options: {
        status: { type: 'string', value: '<status>', description: `One of ${STATUSES.join(', ')}` },
        type: { type: 'string', value: '<type>', description: 'Gate type, e.g. tool_call' },
        risk: { type: 'string', value: '<risk>', description: `One of ${RISKS.join(', ')}` },
        agent: { type: 'string', value: '<agent-id>', description: 'Only gates of this agent' },
        run: { type: 'string', value: '<run-id>', description: 'Only gates of this run' },
        assignee: { type: 'string', value: '<user-id>', description: 'Only gates assigned to this person' },
        limit: { type: 'string', value: '<n>', description: 'Page size (1-500)' },
        cursor: { type: 'string', value: '<cursor>', description: 'The next page, as the previous one said' },
      },
      examples: ['gatehouse gates list --status pending', 'gatehouse gates list --run run_123 --json'],
      run: list,
    },
    {
      name: 'show',
      summary: 'Show one gate: the box-drawn display with its options, and its decision once decided',
      args: '<gate-id>',
      positionals: { min: 1, max: 1 },
      run: show,
    },
    {
      name: 'decide',
      summary: 'Answer a pending gate with one of its options',
      args: '<gate-id>',
      positionals: { min: 1, max: 1 },
      options: {
        option: {
          type: 'string',
          short: 'o',
          value: '<option>',
          description: 'The option, e.g. approve, reject, steer (required)',
        },
        reason: { type: 'string', value: '<text>', description: 'Why (told to the agent)' },
        feedback: { type: 'string', value: '<text>', description: 'Feedback, e.g. for request changes' },
        instructions: {
          type: 'string',
          value: '<text>',
          description: 'Steer instructions (required for steer)',
        },
        artifact: {
          type: 'string',
          multiple: true,
          value: '<path>',
          description: 'An affected artifact (relative path); repeat for more',
        },
        remember: {
          type: 'string',
          value: '<scope>',
          description: 'For approve_always: run, agent or global',
        },
        'remember-ttl': {
          type: 'string',
          value: '<seconds>',
          description: 'How long a remembered rule lasts',
        },
        'confirm-approval': {
          type: 'boolean',
          description: 'Send a steer on a gate that cannot be steered, knowing it is recorded as approve',
        },
        'sign-key': {
          type: 'string',
          value: '<file>',
          description: 'Sign the decision with this Ed25519 private key (PEM)',
        },
      },
      details:
        'Exit code 1 when the server refuses, e.g. "someone else decided first" (GATE_ALREADY_DECIDED)\n' +
        'or GATE_EXPIRED when the deadline passed.',
      examples: [
        'gatehouse gates decide gate_123 --option approve',
        'gatehouse gates decide gate_123 --option steer --instructions "use a migration" --artifact db/schema.sql',
        'gatehouse gates decide gate_123 --option approve --sign-key ~/.config/gatehouse/ed25519.pem',
      ],
      run: decide,
    },
  ],
};
