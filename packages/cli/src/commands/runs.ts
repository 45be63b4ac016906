import { type InterventionKind, type RunStatus, runRoutes } from 'gatehouse-hitl-protocol';
import { choiceOption, intOption, stringOption } from '../args.js';
import type { Action, ActionContext, Command } from '../command.js';
import { UsageError } from '../errors.js';
import { isoTime, printFields, printJson, printTable, relativeTime, terminalSafe } from '../output.js';
import { agentId, agentNames } from './agents.js';

// A plain list: the CLI loads no zod at start-up.
const STATUSES = [
  'running',
  'paused',
  'waiting',
  'stopped',
  'completed',
  'failed',
] as const satisfies readonly RunStatus[];

async function list(context: ActionContext): Promise<number> {
  const { values, command, io } = context;
  const client = context.client();
  const agent = stringOption(values, 'agent');
  const page = await client.call(runRoutes.list, {
    query: {
      agentId: agent === undefined ? undefined : await agentId(client, agent),
      status: choiceOption(values, 'status', STATUSES, command),
      limit: intOption(values, 'limit', { min: 1, max: 500, command }),
      cursor: stringOption(values, 'cursor'),
    },
  });
  if (context.json) {
    printJson(io, page);
    return 0;
  }
  const now = io.now();
  const agents = await agentNames(client);
  printTable(
    io.stdout,
    ['ID', 'AGENT', 'STATUS', 'AUTONOMY', 'MODE', 'PHASE', 'UPDATED', 'TITLE'],
    page.items.map((run) => [
      run.id,
      agents.get(run.agentId) ?? run.agentId,
      run.status,
      run.autonomy,
      run.approvalMode,
      `${run.phaseNumber} ${run.phaseType}`,
      relativeTime(run.updatedAt, now),
      run.title ?? '',
    ]),
    'no runs',
  );
  if (page.nextCursor) io.stdout.write(`more: --cursor ${page.nextCursor}\n`);
  return 0;
}

async function show(context: ActionContext): Promise<number> {
  const id = context.positionals[0] as string;
  const client = context.client();
  const [{ run }, { items: interventions }, agents] = await Promise.all([
    client.call(runRoutes.get, { params: { id } }),
    client.call(runRoutes.interventions, { params: { id } }),
    context.json ? new Map<string, string>() : agentNames(client),
  ]);
  if (context.json) {
    printJson(context.io, { run, interventions });
    return 0;
  }
  const out = context.io.stdout;
  printFields(out, [
    ['Run', run.id],
    ['Title', run.title],
    ['Agent', agents.has(run.agentId) ? `${agents.get(run.agentId)} (${run.agentId})` : run.agentId],
    ['Status', run.status],
    ['Autonomy', run.autonomy],
    ['Approval mode', run.approvalMode],
    ['Confidence threshold', run.confidenceThreshold],
    ['Phase', `${run.phaseNumber} (${run.phaseType})`],
    ['Created', isoTime(run.createdAt)],
    ['Updated', isoTime(run.updatedAt)],
  ]);
  if (run.instructions.length > 0) {
    out.write(
      `\nInstructions received:\n${run.instructions.map((text) => `  - ${terminalSafe(text)}`).join('\n')}\n`,
    );
  }
  if (interventions.length > 0) {
    out.write('\nInterventions:\n');
    printTable(
      out,
      ['  AT', 'KIND', 'BY', 'INSTRUCTION'],
      interventions.map((i) => [`  ${isoTime(i.createdAt)}`, i.kind, i.by, i.instruction ?? '']),
    );
  }
  return 0;
}

async function intervene(
  context: ActionContext,
  kind: InterventionKind,
  instruction?: string,
): Promise<number> {
  const id = context.positionals[0] as string;
  const body = instruction === undefined ? { kind } : { kind, instruction };
  const response = await context.client().call(runRoutes.intervene, { params: { id }, body });
  if (context.json) printJson(context.io, response);
  else {
    const status = response.run ? ` (run is now ${response.run.status})` : '';
    context.io.stdout.write(`${id}: ${kind} sent${status}\n`);
  }
  return 0;
}

function interventionAction(kind: 'pause' | 'resume' | 'stop', summary: string): Action {
  return {
    name: kind,
    summary,
    args: '<run-id>',
    positionals: { min: 1, max: 1 },
    run: (context) => intervene(context, kind),
  };
}

async function steer(context: ActionContext): Promise<number> {
  const fromOption = stringOption(context.values, 'instruction');
  const words = context.positionals.slice(1);
  if (fromOption !== undefined && words.length > 0) {
    throw new UsageError(
      'give the instruction either as --instruction or as words after the run id',
      context.command,
    );
  }
  const instruction = (fromOption ?? words.join(' ')).trim();
  if (instruction === '') {
    throw new UsageError('steer needs a non-empty instruction', context.command);
  }
  return intervene(context, 'steer', instruction);
}

/** `gatehouse runs`: list and inspect runs, and pause, resume, stop or steer them. */
export const runsCommand: Command = {
  name: 'runs',
  summary: 'List and show runs; pause, resume, stop or steer a running agent',
  actions: [
    {
      name: 'list',
      summary: 'List runs, filtered by agent or status',
      options: {
        agent: { type: 'string', value: '<agent>', description: 'Only runs of this agent (its name or id)' },
        status: { type: 'string', value: '<status>', description: `One of ${STATUSES.join(', ')}` },
        limit: { type: 'string', value: '<n>', description: 'Page size (1-500)' },
        cursor: { type: 'string', value: '<cursor>', description: 'The next page, as the previous one said' },
      },
      run: list,
    },
    {
      name: 'show',
      summary: 'Show one run with its instructions and interventions',
      args: '<run-id>',
      positionals: { min: 1, max: 1 },
      run: show,
    },
    interventionAction('pause', "Pause a run: its next gate request is held until it's resumed"),
    interventionAction('resume', 'Resume a paused run'),
    interventionAction('stop', 'Stop a run: every further request of the run fails closed'),
    {
      name: 'steer',
      summary: 'Send a run a new instruction; the agent receives it as its next instruction',
      args: '<run-id> [instruction…]',
      positionals: { min: 1, max: 200 },
      options: {
        instruction: {
          type: 'string',
          short: 'i',
          value: '<text>',
          description: 'The instruction (or give it as words)',
        },
      },
      examples: ['gatehouse runs steer run_123 "use the staging database, not production"'],
      run: steer,
    },
  ],
};
