import {
  type LearnedRuleDocument,
  type StandingScopeDocument,
  type TrustProposalDocument,
  trustRoutes,
} from 'gatehouse-hitl-protocol';
import { stringOption } from '../args.js';
import type { ActionContext, Command } from '../command.js';
import { UsageError } from '../errors.js';
import { isoTime, printJson, printTable, terminalSafe } from '../output.js';

const STATUSES = ['proposed', 'accepted', 'dismissed', 'expired', 'revoked', 'all'] as const;

function seconds(ms: number): string {
  return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`;
}

/** The evidence in one line: `12 approvals by 3 people over 5 days, median 4.0 s; replay: 12 allowed, 0 turned down`. */
export function evidenceLine(proposal: TrustProposalDocument): string {
  const { evidence, replay } = proposal;
  if (proposal.kind === 'autonomy')
    return (
      `${evidence.approvals} phase reviews approved by ${evidence.people.length} people over ${evidence.spanDays} days, ` +
      `median ${seconds(evidence.medianDecisionMs)}; none turned down in ${replay.windowDays} days`
    );
  const against = replay.rejected + replay.steered + replay.edited + replay.failed;
  return (
    `${evidence.approvals} approvals by ${evidence.people.length} people over ${evidence.spanDays} days, ` +
    `median ${seconds(evidence.medianDecisionMs)}; replay over ${replay.windowDays} days: ` +
    `${replay.wouldAllow} allowed, ${against} turned down`
  );
}

async function proposals(context: ActionContext): Promise<number> {
  const status = stringOption(context.values, 'status') ?? 'proposed';
  if (!(STATUSES as readonly string[]).includes(status))
    throw new UsageError(`--status must be one of ${STATUSES.join(', ')} (got ${status})`, context.command);
  const response = await context.client().call(trustRoutes.proposals, {
    query: { status: status as (typeof STATUSES)[number] },
  });
  if (context.json) {
    printJson(context.io, response);
    return 0;
  }
  printTable(
    context.io.stdout,
    ['ID', 'AGENT', 'COVERS', 'STATUS', 'EVIDENCE'],
    response.proposals.map((p) => [p.id, p.agentId, p.description, p.status, evidenceLine(p)]),
    status === 'proposed' ? 'no proposals: nothing has been approved often enough yet' : 'no proposals',
  );
  return 0;
}

/** The narrower scope a person names, if any: exactly one of --command, --prefix or --path. */
function scopeOf(context: ActionContext): StandingScopeDocument | undefined {
  const command = stringOption(context.values, 'command');
  const prefix = stringOption(context.values, 'prefix');
  const path = stringOption(context.values, 'path');
  const given = [command, prefix, path].filter((value) => value !== undefined);
  if (given.length > 1)
    throw new UsageError('give at most one of --command, --prefix or --path', context.command);
  if (command !== undefined) return { kind: 'command', command };
  if (prefix !== undefined) return { kind: 'prefix', prefix };
  if (path !== undefined) return { kind: 'path', glob: path };
  return undefined;
}

function daysOf(context: ActionContext): number | undefined {
  const text = stringOption(context.values, 'days');
  if (text === undefined) return undefined;
  const days = Number(text);
  if (!Number.isInteger(days) || days < 1 || days > 365)
    throw new UsageError(`--days must be a whole number from 1 to 365 (got ${text})`, context.command);
  return days;
}

async function accept(context: ActionContext): Promise<number> {
  const scope = scopeOf(context);
  const days = daysOf(context);
  const response = await context.client().call(trustRoutes.accept, {
    params: { id: context.positionals[0] as string },
    body: { ...(scope === undefined ? {} : { scope }), ...(days === undefined ? {} : { days }) },
  });
  if (context.json) printJson(context.io, response);
  else if (response.rule === null)
    context.io.stdout.write(
      `${response.proposal.id}: accepted: ${terminalSafe(response.proposal.description)}\n`,
    );
  else
    context.io.stdout.write(
      `${response.proposal.id}: accepted as ${response.rule.id}: ${terminalSafe(response.rule.description)} for ${terminalSafe(response.rule.agentId)} until ${isoTime(response.rule.expiresAt)} (policy version ${response.proposal.policyVersion ?? '-'})\n`,
    );
  return 0;
}

async function dismiss(context: ActionContext): Promise<number> {
  const reason = stringOption(context.values, 'reason');
  const response = await context.client().call(trustRoutes.dismiss, {
    params: { id: context.positionals[0] as string },
    body: reason === undefined ? {} : { reason },
  });
  if (context.json) printJson(context.io, response);
  else context.io.stdout.write(`${response.proposal.id}: dismissed; it is not proposed again\n`);
  return 0;
}

function ruleRow(rule: LearnedRuleDocument): unknown[] {
  return [
    rule.id,
    rule.agentId,
    rule.description,
    rule.state,
    isoTime(rule.expiresAt),
    rule.acceptedBy,
    rule.revokedReason ?? '-',
  ];
}

async function rules(context: ActionContext): Promise<number> {
  const all = context.values.all === true;
  const response = await context
    .client()
    .call(trustRoutes.rules, { query: all ? { includeEnded: 'true' } : {} });
  if (context.json) printJson(context.io, response);
  else
    printTable(
      context.io.stdout,
      ['ID', 'AGENT', 'COVERS', 'STATE', 'EXPIRES', 'ACCEPTED BY', 'REVOKED BECAUSE'],
      response.rules.map(ruleRow),
      all ? 'no learned rules' : 'no learned rules in force',
    );
  return 0;
}

async function revoke(context: ActionContext): Promise<number> {
  const reason = stringOption(context.values, 'reason');
  const route = context.values.harmful === true ? trustRoutes.harmful : trustRoutes.revoke;
  const response = await context.client().call(route, {
    params: { id: context.positionals[0] as string },
    body: reason === undefined ? {} : { reason },
  });
  if (context.json) printJson(context.io, response);
  else
    context.io.stdout.write(
      `${response.rule.id}: revoked; later ${terminalSafe(response.rule.description)} calls wait for a person again\n`,
    );
  return 0;
}

const reasonOption = {
  type: 'string' as const,
  value: '<text>',
  description: 'Why, kept in the audit trail',
};

/** `gatehouse trust`: proposals from the decision history, and the rules people accepted from them. */
export const trustCommand: Command = {
  name: 'trust',
  summary: 'Review trust proposals from the decision history; accept, dismiss and revoke learned rules',
  actions: [
    {
      name: 'proposals',
      summary: 'List proposals with their evidence (brought up to date with the history first)',
      options: {
        status: {
          type: 'string',
          value: '<status>',
          description: `Which proposals: ${STATUSES.join(', ')} (default proposed)`,
        },
      },
      details:
        'A proposal is a scoped allow rule for one agent that the decision history earned: enough\n' +
        'approvals by enough people over enough days, and nothing the scope covers rejected, steered,\n' +
        'edited or reported harmful in the replay window. An autonomy proposal raises one agent by one\n' +
        'level from its approved phase reviews, none turned down in the window. See docs/trust.md.',
      examples: ['gatehouse trust proposals', 'gatehouse trust proposals --status all --json'],
      run: proposals,
    },
    {
      name: 'accept',
      summary:
        'Accept a proposal as a learned rule (or a narrower scope), or an autonomy change (tech_lead, admin)',
      args: '<proposal-id>',
      positionals: { min: 1, max: 1 },
      options: {
        command: { type: 'string', value: '<command>', description: 'Narrow to this exact command' },
        prefix: { type: 'string', value: '<prefix>', description: 'Narrow to this longer command prefix' },
        path: {
          type: 'string',
          value: '<glob>',
          description: 'Narrow to this path glob below the proposed one',
        },
        days: {
          type: 'string',
          value: '<n>',
          description: 'How long the rule lasts (default: the policy’s, 30)',
        },
      },
      examples: [
        'gatehouse trust accept tp_123',
        "gatehouse trust accept tp_123 --command 'npm test' --days 7",
      ],
      run: accept,
    },
    {
      name: 'dismiss',
      summary: 'Dismiss a proposal; it is not proposed again (tech_lead, admin)',
      args: '<proposal-id>',
      positionals: { min: 1, max: 1 },
      options: { reason: reasonOption },
      examples: ["gatehouse trust dismiss tp_123 --reason 'tests reach the network'"],
      run: dismiss,
    },
    {
      name: 'rules',
      summary: 'List learned rules in force: what each covers, for which agent, until when',
      options: { all: { type: 'boolean', description: 'Also list expired and revoked rules' } },
      examples: ['gatehouse trust rules', 'gatehouse trust rules --all --json'],
      run: rules,
    },
    {
      name: 'revoke',
      summary: 'Revoke a learned rule at once (tech_lead, admin; --harmful: any developer)',
      args: '<rule-id>',
      positionals: { min: 1, max: 1 },
      options: {
        reason: reasonOption,
        harmful: { type: 'boolean', description: 'Report a call it let through as harmful' },
      },
      examples: [
        'gatehouse trust revoke rule_123',
        "gatehouse trust revoke rule_123 --harmful --reason 'deleted fixtures'",
      ],
      run: revoke,
    },
  ],
};
