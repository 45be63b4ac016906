#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { createWorkspace, runCodingAgent } from 'gatehouse-hitl/demo';
import { Gatehouse, isGatehouseApiError } from 'gatehouse-hitl-sdk';

const HELP = `gatehouse-demo-agent: a scripted coding agent (no LLM) that asks Gatehouse before each step

Usage: node examples/coding-agent/dist/main.js [--url URL] [--token TOKEN] [--keep]

Options:
  --url URL      the Gatehouse server (env GATEHOUSE_URL, default http://127.0.0.1:7300)
  --token TOKEN  an agent token, gha_... (env GATEHOUSE_TOKEN; create one with \`gatehouse agents create\`)
  --keep         keep the temporary git workspace and print its path
  -h, --help     show this help

It creates a run (autonomy partial) and clones its repository, pushes its plan on
phase-1-strategic and sends it for intent approval (Gate 0), freezes for the review of that
branch, then on phase-2-tactical writes two files, runs \`npm test\` and \`rm -rf build\`, reports
confidence 72/100 and pushes the branch for the final review (Approve & merge squash-merges it).
Answer each gate in \`gatehouse inbox\` (or with POST /v1/gates/:id/decide) and watch it go on.
`;

function usage(message: string): never {
  process.stderr.write(`${message}\n\n${HELP}`);
  process.exit(2);
}

function readOptions(): { url: string; token: string; keep: boolean } {
  let values: {
    url?: string | undefined;
    token?: string | undefined;
    keep?: boolean | undefined;
    help?: boolean | undefined;
  };
  try {
    ({ values } = parseArgs({
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        keep: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    usage((error as Error).message);
  }
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const token = values.token ?? process.env.GATEHOUSE_TOKEN;
  if (!token) usage('an agent token is required: --token gha_... or GATEHOUSE_TOKEN');
  return {
    url: values.url ?? process.env.GATEHOUSE_URL ?? 'http://127.0.0.1:7300',
    token,
    keep: values.keep ?? false,
  };
}

async function main(): Promise<number> {
  const { url, token, keep } = readOptions();
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const interrupted = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => interrupted.abort(new Error(`interrupted (${signal})`)));
  }
  const gate = new Gatehouse({
    url,
    token,
    retry: {
      onRetry: ({ attempt, delayMs, error }) =>
        log(`    (server unavailable: ${(error as Error).message}; retry ${attempt} in ${delayMs} ms)`),
    },
  });
  const workspace = await createWorkspace({ keep });
  try {
    await runCodingAgent({ gate, workspace, log, signal: interrupted.signal });
    return 0;
  } catch (error) {
    if (isGatehouseApiError(error)) log(`\nstopped: ${error.code}: ${error.message}`);
    else log(`\nstopped: ${(error as Error).message ?? String(error)}`);
    return 1;
  } finally {
    await workspace.close();
    if (keep) log(`workspace kept at ${workspace.dir}`);
  }
}

process.exitCode = await main();
