import { type WhitelistEntry, whitelistRoutes } from 'gatehouse-hitl-protocol';
import { requiredOption, stringOption } from '../args.js';
import type { ActionContext, Command } from '../command.js';
import { UsageError } from '../errors.js';
import { isoTime, printJson, printTable } from '../output.js';

function printEntry(context: ActionContext, verb: string, entry: WhitelistEntry): void {
  const where = entry.scope === 'file' ? `in ${entry.path}` : 'everywhere';
  context.io.stdout.write(
    `${entry.id}: ${entry.pattern} ${where} ${verb}, until ${isoTime(entry.expiresAt)}\n`,
  );
}

async function list(context: ActionContext): Promise<number> {
  const response = await context.client().call(whitelistRoutes.list);
  if (context.json) printJson(context.io, response);
  else {
    printTable(
      context.io.stdout,
      ['ID', 'PATTERN', 'SCOPE', 'PATH', 'AGENT', 'SUPPRESSED', 'STATUS', 'EXPIRES'],
      response.whitelists.map((entry) => [
        entry.id,
        entry.pattern,
        entry.scope,
        entry.path ?? '-',
        entry.agentId ?? '(any)',
        String(entry.suppressed),
        entry.status,
        isoTime(entry.expiresAt),
      ]),
      'no whitelist entries',
    );
  }
  return 0;
}

async function add(context: ActionContext): Promise<number> {
  const pattern = context.positionals[0] as string;
  const path = stringOption(context.values, 'path');
  const global = context.values.global === true;
  if (global === (path !== undefined))
    throw new UsageError('give exactly one of --path <glob> (file scope) or --global', context.command);
  const agent = stringOption(context.values, 'agent');
  const response = await context.client().call(whitelistRoutes.create, {
    body: {
      pattern,
      scope: global ? 'global' : 'file',
      ...(path === undefined ? {} : { path }),
      ...(agent === undefined ? {} : { agentId: agent }),
      justification: requiredOption(context.values, 'justification', context.command),
    },
  });
  if (context.json) printJson(context.io, response);
  else printEntry(context, 'whitelisted', response.whitelist);
  return 0;
}

async function remove(context: ActionContext): Promise<number> {
  const id = context.positionals[0] as string;
  const response = await context.client().call(whitelistRoutes.remove, { params: { id } });
  if (context.json) printJson(context.io, response);
  else context.io.stdout.write(`${id}: removed\n`);
  return 0;
}

async function renew(context: ActionContext): Promise<number> {
  const justification = stringOption(context.values, 'justification');
  const response = await context.client().call(whitelistRoutes.renew, {
    params: { id: context.positionals[0] as string },
    body: justification === undefined ? {} : { justification },
  });
  if (context.json) printJson(context.io, response);
  else printEntry(context, 'renewed', response.whitelist);
  return 0;
}

const justificationOption = {
  type: 'string' as const,
  value: '<text>',
  description: 'Why the pattern is fine here, at least 10 characters',
};

/** `gatehouse whitelist`: allow a finding pattern in some files or everywhere, for 90 days at a time. */
export const whitelistCommand: Command = {
  name: 'whitelist',
  summary: 'List, add, remove and renew whitelisted finding patterns',
  actions: [
    { name: 'list', summary: 'List whitelist entries with their suppressed counts and expiry', run: list },
    {
      name: 'add',
      summary: 'Whitelist a finding pattern for the files a glob matches, or everywhere (tech_lead+)',
      args: '<pattern>',
      positionals: { min: 1, max: 1 },
      options: {
        path: {
          type: 'string',
          value: '<glob>',
          description: 'Files it covers: * and ? within a folder, ** across',
        },
        global: { type: 'boolean', description: 'Cover every file instead of --path' },
        agent: { type: 'string', value: '<agent-id>', description: "Only this agent's findings" },
        justification: justificationOption,
      },
      details: 'Entries expire after 90 days; a re-review gate then opens. Agents cannot whitelist.',
      examples: [
        "gatehouse whitelist add lazy.error_swallowed --path 'src/legacy/**' --justification 'adapters log and drop by design'",
      ],
      run: add,
    },
    {
      name: 'remove',
      summary: 'Delete a whitelist entry (tech_lead+)',
      args: '<id>',
      positionals: { min: 1, max: 1 },
      run: remove,
    },
    {
      name: 'renew',
      summary: 'Extend an entry by 90 days from now (tech_lead+)',
      args: '<id>',
      positionals: { min: 1, max: 1 },
      options: { justification: justificationOption },
      run: renew,
    },
  ],
};
