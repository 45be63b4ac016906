import { type RememberedRule, ruleRoutes } from 'gatehouse-hitl-protocol';
import type { ActionContext, Command } from '../command.js';
import { isoTime, printJson, printTable, terminalSafe } from '../output.js';

/** Where a rule applies, in words: `run run_1`, `agent agent_1`, `every agent`. */
function whereOf(rule: RememberedRule): string {
  switch (rule.scope) {
    case 'run':
      return `run ${rule.runId ?? '-'}`;
    case 'agent':
      return `agent ${rule.agentId ?? '-'}`;
    case 'global':
      return 'every agent';
  }
}

function statusOf(rule: RememberedRule, now: number): string {
  if (rule.revokedAt !== null) return 'revoked';
  return rule.expiresAt !== null && rule.expiresAt <= now ? 'expired' : 'active';
}

/** One line saying what a rule lets through: `rule_1: bash(npm test:*) for agent agent_1, until revoked`. */
export function describeRule(rule: RememberedRule): string {
  const until = rule.expiresAt === null ? 'until revoked' : `until ${isoTime(rule.expiresAt)}`;
  return `${rule.id}: ${terminalSafe(rule.description)} in ${terminalSafe(whereOf(rule))}, ${until}`;
}

async function list(context: ActionContext): Promise<number> {
  const all = context.values.all === true;
  const response = await context
    .client()
    .call(ruleRoutes.list, { query: all ? { includeRevoked: 'true' } : {} });
  if (context.json) {
    printJson(context.io, response);
    return 0;
  }
  const now = context.io.now();
  printTable(
    context.io.stdout,
    ['ID', 'COVERS', 'WHERE', 'EXPIRES', 'STATUS', 'CREATED BY'],
    response.rules.map((rule) => [
      rule.id,
      rule.description,
      whereOf(rule),
      rule.expiresAt === null ? 'until revoked' : isoTime(rule.expiresAt),
      statusOf(rule, now),
      rule.createdBy,
    ]),
    all ? 'no remembered rules' : 'no remembered rules in force',
  );
  return 0;
}

async function revoke(context: ActionContext): Promise<number> {
  const id = context.positionals[0] as string;
  const response = await context.client().call(ruleRoutes.revoke, { params: { id } });
  if (context.json) printJson(context.io, response);
  else
    context.io.stdout.write(
      `${id}: revoked; later ${terminalSafe(response.rule.description)} calls wait for a person again\n`,
    );
  return 0;
}

/** `gatehouse rules`: the remembered "approve always" rules, and revoking them. */
export const rulesCommand: Command = {
  name: 'rules',
  summary: 'List and revoke remembered "approve always" rules',
  actions: [
    {
      name: 'list',
      summary: 'List the rules in force: what each covers, where, and until when',
      options: {
        all: { type: 'boolean', description: 'Also list revoked and expired rules' },
      },
      details:
        'COVERS reads like Bash(npm test:*): the tool, then the command prefix, exact command or path\n' +
        'glob it covers. A rule made before scopes shows the bare tool name and covers only calls\n' +
        'with no command or paths.',
      examples: ['gatehouse rules list', 'gatehouse rules list --all --json'],
      run: list,
    },
    {
      name: 'revoke',
      summary: 'Revoke a rule at once: later calls it covered open gates again',
      args: '<rule-id>',
      positionals: { min: 1, max: 1 },
      examples: ['gatehouse rules revoke rule_123'],
      run: revoke,
    },
  ],
};
