import { steerOptionOf } from 'gatehouse-hitl-core';
import {
  type GateListQuery,
  type GateListResponse,
  gateRoutes,
  type RiskLevel,
  type RuleScope,
  type StandingScopeDocument,
} from 'gatehouse-hitl-protocol';
import { decisionWhitelistScope, GATE_STATUSES as STATUSES } from 'gatehouse-hitl-protocol/rules';
import {
  choiceOption,
  durationOption,
  intOption,
  listOption,
  requiredOption,
  stringOption,
} from '../args.js';
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
import { CliError, isApiError, UsageError } from '../errors.js';
import { showGate } from '../gate-view.js';
import type { ApiClient } from '../http.js';
import { editedPayloadHash } from '../inbox-edit.js';
import { printJson, printTable, relativeTime } from '../output.js';
import { createViewReporter } from '../view-report.js';
import { agentId, agentNames } from './agents.js';
import { editedArgsOf } from './gates-edit.js';
import { WHITELIST_FLAGS, whitelistLine, whitelistOf } from './gates-whitelist.js';
import { describeRule } from './rules.js';

// Plain lists: the CLI loads no zod at start-up (the hook runs before every tool call).
const RISKS = ['low', 'medium', 'high', 'critical'] as const satisfies readonly RiskLevel[];
const SCOPES = ['run', 'agent', 'global'] as const satisfies readonly RuleScope[];
const MATCH_OPTIONS = ['match-prefix', 'match-command', 'match-path', 'match-tool'] as const;
const REMEMBER_OPTIONS = ['remember', 'remember-ttl', 'expires', ...MATCH_OPTIONS] as const;
// The longest a remembered rule may last: 30 days, as the server allows.
const MAX_RULE_SECONDS = 2_592_000;

/** A page of gates as `GET /v1/gates` answers. */
export type GatePage = GateListResponse;

/** Fetches gates with the given filters. */
export function listGates(client: ApiClient, query: GateListQuery): Promise<GatePage> {
  return client.call(gateRoutes.list, { query });
}

async function list(context: ActionContext): Promise<number> {
  const { values, command, io } = context;
  const client = context.client();
  const agent = stringOption(values, 'agent');
  const page = await listGates(client, {
    status: choiceOption(values, 'status', STATUSES, command),
    type: stringOption(values, 'type'),
    risk: choiceOption(values, 'risk', RISKS, command),
    agentId: agent === undefined ? undefined : await agentId(client, agent),
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
  const agents = await agentNames(client);
  printTable(
    io.stdout,
    ['ID', 'TYPE', 'RISK', 'STATUS', 'AGENT', 'DEADLINE', 'HEADLINE'],
    page.items.map((gate) => [
      gate.id,
      gate.type,
      gate.risk,
      gate.status,
      gate.agentId === null ? '-' : (agents.get(gate.agentId) ?? gate.agentId),
      gate.status === 'pending' ? relativeTime(gate.timeoutAt, now) : '-',
      gate.headline,
    ]),
    'no gates',
  );
  if (page.nextCursor) io.stdout.write(`more: --cursor ${page.nextCursor}\n`);
  return 0;
}

async function show(context: ActionContext): Promise<number> {
  const id = context.positionals[0] as string;
  const body = await context.client().call(gateRoutes.get, { params: { id } });
  if (context.json) printJson(context.io, body);
  else {
    await showGate(context.io, body);
    await createViewReporter(context.client())(body.gate);
  }
  return 0;
}

/** `--always` is approve_always; `--edit` is approve with edits; `--option` names any option. */
function optionOf(context: ActionContext, edited: boolean): string {
  const { values, command } = context;
  if (edited) {
    const option = stringOption(values, 'option');
    if (values.always === true)
      throw new UsageError('--edit approves once with edits; leave out --always', command);
    if (option !== undefined && option !== 'approve')
      throw new UsageError(`--edit approves with edits; leave out --option ${option}`, command);
    return 'approve';
  }
  if (values.always !== true) return requiredOption(values, 'option', command);
  const option = stringOption(values, 'option');
  if (option !== undefined && option !== 'approve_always')
    throw new UsageError(`--always approves always; leave out --option ${option}`, command);
  return 'approve_always';
}

/** What an --always decision covers: at most one --match-* option; none = the scope the gate suggests. */
function matchOf(context: ActionContext): StandingScopeDocument | undefined {
  const { values, command } = context;
  const given = MATCH_OPTIONS.filter((name) => values[name] !== undefined);
  if (given.length > 1)
    throw new UsageError(`give one of ${given.map((name) => `--${name}`).join(' or ')}, not both`, command);
  const prefix = stringOption(values, 'match-prefix');
  if (prefix !== undefined) return { kind: 'prefix', prefix };
  const exact = stringOption(values, 'match-command');
  if (exact !== undefined) return { kind: 'command', command: exact };
  const glob = stringOption(values, 'match-path');
  if (glob !== undefined) return { kind: 'path', glob };
  return values['match-tool'] === true ? { kind: 'tool' } : undefined;
}

/** The rule an approve_always decision remembers: where, what it covers and until when. */
function rememberOf(context: ActionContext, option: string): DecisionBody['remember'] {
  const { values, command } = context;
  if (option !== 'approve_always') {
    const stray = REMEMBER_OPTIONS.find((name) => values[name] !== undefined);
    if (stray !== undefined)
      throw new UsageError(`--${stray} is for "approve always"; add --always`, command);
    return undefined;
  }
  const scope = choiceOption(values, 'remember', SCOPES, command);
  const bounds = { min: 60, max: MAX_RULE_SECONDS, command };
  const ttl = intOption(values, 'remember-ttl', bounds);
  const expires = durationOption(values, 'expires', bounds);
  if (ttl !== undefined && expires !== undefined)
    throw new UsageError('give --expires or --remember-ttl, not both', command);
  const ttlSeconds = expires ?? ttl;
  const match = matchOf(context);
  if (scope === undefined && ttlSeconds === undefined && match === undefined) return undefined;
  return {
    ...(scope === undefined ? {} : { scope }),
    ...(ttlSeconds === undefined ? {} : { ttlSeconds }),
    ...(match === undefined ? {} : { match }),
  };
}

async function decisionBody(context: ActionContext, client: ApiClient, id: string): Promise<DecisionBody> {
  const { values } = context;
  const editedArgs = editedArgsOf(context);
  const body: DecisionBody = { option: optionOf(context, editedArgs !== undefined) };
  if (editedArgs !== undefined) body.editedArgs = editedArgs;
  const reason = stringOption(values, 'reason');
  if (reason !== undefined) body.reason = reason;
  const feedback = stringOption(values, 'feedback');
  if (feedback !== undefined) body.feedback = feedback;
  const instructions = stringOption(values, 'instructions');
  if (instructions !== undefined) body.instructions = instructions;
  const artifacts = listOption(values, 'artifact');
  if (artifacts.length > 0) body.affectedArtifacts = artifacts;
  const remember = rememberOf(context, body.option);
  if (remember !== undefined) body.remember = remember;
  const whitelist = whitelistOf(context, body.option);
  if (whitelist !== undefined) body.whitelist = whitelist;
  if (body.option === 'steer') await confirmSteer(context, client, id, body);
  const keyFile = stringOption(values, 'sign-key');
  if (keyFile !== undefined) {
    const key = readSigningKey(keyFile);
    const { gate } = await client.call(gateRoutes.get, { params: { id } });
    // An edited approval signs the edited action's hash, as the server checks it.
    const signed =
      editedArgs === undefined ? gate : { ...gate, payloadHash: editedPayloadHash(gate, editedArgs) };
    // The scope the signature covers, said before it is sent (on stderr, so --json stays one document).
    const scope = decisionWhitelistScope(gate, body.option, body.whitelist);
    if (scope !== undefined) context.io.stderr.write(`${whitelistLine(scope)}\n`);
    body.signature = await signDecision(key, signed, body);
  } else if (body.whitelist !== undefined) context.io.stderr.write(`${whitelistLine(body.whitelist)}\n`);
  return body;
}

/** A steer that the gate records as an approval is sent only with --confirm-approval, said before sending. */
async function confirmSteer(context: ActionContext, client: ApiClient, id: string, body: DecisionBody) {
  const { gate } = await client.call(gateRoutes.get, { params: { id } });
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
    else {
      context.io.stdout.write(`${describeDecision(response)}\n`);
      if (response.rule) context.io.stdout.write(`remembered ${describeRule(response.rule)}\n`);
    }
    return 0;
  } catch (error) {
    // With --json the refusal is printed as JSON, details.winner included.
    if (!isApiError(error, 'GATE_ALREADY_DECIDED') || context.json) throw error;
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
        agent: { type: 'string', value: '<agent>', description: 'Only gates of this agent (its name or id)' },
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
          description: 'The option, e.g. approve, reject, steer (required unless --always or --edit)',
        },
        edit: {
          type: 'string',
          value: '<json>',
          description: "Approve with edits: the arguments to run instead of the agent's, as a JSON object",
        },
        'edit-file': {
          type: 'string',
          value: '<path>',
          description: 'Approve with edits read from this JSON file (instead of --edit)',
        },
        always: {
          type: 'boolean',
          description: 'Approve always (approve_always): later calls the rule covers go ahead without a gate',
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
          description: 'With --always: run (default), agent, or global (tech lead or above)',
        },
        'match-prefix': {
          type: 'string',
          value: '<prefix>',
          description: 'With --always: cover commands that start with these words, e.g. "npm test"',
        },
        'match-command': {
          type: 'string',
          value: '<command>',
          description: 'With --always: cover only this exact command',
        },
        'match-path': {
          type: 'string',
          value: '<glob>',
          description: 'With --always: cover file calls inside this workspace glob, e.g. "src/**"',
        },
        'match-tool': {
          type: 'boolean',
          description: 'With --always: cover the whole tool (only for calls with no command or paths)',
        },
        expires: {
          type: 'string',
          value: '<duration>',
          description: 'With --always: the rule lapses after this long, e.g. 12h or 7d (at most 30d)',
        },
        'remember-ttl': {
          type: 'string',
          value: '<seconds>',
          description: 'With --always: the same as --expires, in seconds',
        },
        ...WHITELIST_FLAGS,
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
        'or GATE_EXPIRED when the deadline passed.\n\n' +
        'With --always and no --match-* option the rule covers the scope the gate suggests (shown by\n' +
        "`gatehouse gates show <id> --json` as standingScopes). A scope that does not cover the gate's own\n" +
        'call, or a prefix naming a shell or interpreter, is refused (VALIDATION_FAILED, remember.match).\n' +
        'Always-gated operations can never be approved always. `gatehouse rules list` shows the rules.\n\n' +
        "--edit approves the gate with other arguments (`gatehouse gates show <id> --json` shows the agent's\n" +
        'as action.args); the approval binds to the edited action. The server refuses an edit on a gate that is\n' +
        'not editable (VALIDATION_FAILED, editedArgs) or one a policy rule would not allow (EDIT_REFUSED).',
      examples: [
        'gatehouse gates decide gate_123 --option approve',
        'gatehouse gates decide gate_123 --option steer --instructions "use a migration" --artifact db/schema.sql',
        'gatehouse gates decide gate_123 --option approve --sign-key ~/.config/gatehouse/ed25519.pem',
        `gatehouse gates decide gate_123 --edit '{"command":"rm -rf build/cache"}' --reason "only the cache"`,
        'gatehouse gates decide gate_123 --edit-file edited-args.json',
        'gatehouse gates decide gate_123 --always --match-prefix "npm test" --remember agent --expires 7d',
      ],
      run: decide,
    },
  ],
};
