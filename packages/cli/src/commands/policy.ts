import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import {
  type DryRunRequest,
  type PolicyFormat,
  type PolicyVersionResponse,
  type PolicyView,
  policyRoutes,
} from 'gatehouse-hitl-protocol';
import { choiceOption, intOption, stringOption } from '../args.js';
import type { ActionContext, Command } from '../command.js';
import { CliError } from '../errors.js';
import { printFields, printJson, terminalSafe, terminalSafeBlock } from '../output.js';

type Format = PolicyFormat;
const FORMATS: readonly Format[] = ['yaml', 'json'];

/** `GET /v1/policy` answers with its name and load failure too; an older version has neither. */
type PolicyVersion = PolicyVersionResponse & Partial<Pick<PolicyView, 'name' | 'failure'>>;

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

function formatOf(context: ActionContext, file: string): Format {
  const given = choiceOption(context.values, 'format', FORMATS, context.command);
  if (given) return given;
  return extname(file).toLowerCase() === '.json' ? 'json' : 'yaml';
}

async function show(context: ActionContext): Promise<number> {
  const version = intOption(context.values, 'version', {
    min: 1,
    max: 1_000_000_000,
    command: context.command,
  });
  const client = context.client();
  const policy: PolicyVersion =
    version === undefined
      ? await client.call(policyRoutes.get)
      : await client.call(policyRoutes.version, { params: { version } });
  if (context.json) {
    printJson(context.io, policy);
    return 0;
  }
  // The source alone goes to stdout, so `policy show > policy.yaml` round-trips through `policy apply`.
  const name = policy.name ? ` "${terminalSafe(policy.name)}"` : '';
  context.io.stderr.write(`# policy${name} version ${policy.version} (${policy.format})\n`);
  if (policy.failure) {
    context.io.stderr.write(
      `# it does not load, so every request is gated: ${terminalSafe(policy.failure)}\n`,
    );
  }
  const source = terminalSafeBlock(policy.source);
  context.io.stdout.write(source.endsWith('\n') ? source : `${source}\n`);
  return 0;
}

async function apply(context: ActionContext): Promise<number> {
  const file = context.positionals[0] as string;
  const source = readText(file);
  const format = formatOf(context, file);
  const policy = await context.client().call(policyRoutes.replace, { body: { source, format } });
  if (context.json) printJson(context.io, policy);
  else context.io.stdout.write(`policy version ${policy.version} is active (from ${file})\n`);
  return 0;
}

/** The request as the file holds it; the server checks its shape. */
function parseRequest(file: string): DryRunRequest {
  const text = readText(file);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${file} is not JSON: ${(error as Error).message}`);
  }
}

async function test(context: ActionContext): Promise<number> {
  const request = parseRequest(context.positionals[0] as string);
  const policyFile = stringOption(context.values, 'policy');
  const body =
    policyFile === undefined
      ? { request }
      : { request, source: readText(policyFile), format: formatOf(context, policyFile) };
  const result = await context.client().call(policyRoutes.dryRun, { body });
  if (context.json) {
    printJson(context.io, result);
    return 0;
  }
  const { gate } = result;
  printFields(context.io.stdout, [
    ['Outcome', result.outcome],
    ['Source', result.via],
    ['Rule', result.ruleId ?? '(none)'],
    ['Reason', result.reason],
    ['Policy', policyFile ?? (result.policyVersion ? `version ${result.policyVersion}` : undefined)],
    ['Gate type', gate?.type],
    ['Risk', gate?.risk],
    ['Who decides', gate ? `${gate.minRole} or above, ${gate.requiredApprovals} approval(s)` : undefined],
    ['Signature', gate?.signatureRequired ? 'required' : undefined],
    [
      'Timeout',
      gate
        ? gate.timeoutSeconds === null
          ? 'none'
          : `${gate.timeoutSeconds}s, then ${gate.timeoutAction}`
        : undefined,
    ],
  ]);
  return 0;
}

/** `gatehouse policy`: read, replace and try out the policy. */
export const policyCommand: Command = {
  name: 'policy',
  summary: 'Show, apply and test the policy that decides allow / deny / gate',
  actions: [
    {
      name: 'show',
      summary: 'Print the active policy (or an older version) as written',
      options: { version: { type: 'string', value: '<n>', description: 'An older version' } },
      examples: ['gatehouse policy show > policy.yaml'],
      run: show,
    },
    {
      name: 'apply',
      summary: 'Replace the policy with a YAML or JSON file; it is validated, versioned and audited',
      args: '<file>',
      positionals: { min: 1, max: 1 },
      options: {
        format: {
          type: 'string',
          value: '<format>',
          description: 'yaml or json (default: from the file name)',
        },
      },
      details:
        'When the policy does not load, each faulty rule is printed with its fault and the exit code is 1.',
      examples: ['gatehouse policy apply policy.yaml'],
      run: apply,
    },
    {
      name: 'test',
      summary: 'Dry-run a request against the policy: which rule decides and what happens',
      args: '<request.json>',
      positionals: { min: 1, max: 1 },
      options: {
        policy: {
          type: 'string',
          value: '<file>',
          description: 'Test against this policy file instead of the active one',
        },
        format: { type: 'string', value: '<format>', description: 'Format of --policy: yaml or json' },
      },
      details:
        'The request file holds what an agent sends, e.g. {"tool": "shell", "args": {"command": "rm -rf build"}}.',
      examples: [
        'gatehouse policy test request.json',
        'gatehouse policy test request.json --policy draft.yaml',
      ],
      run: test,
    },
  ],
};
