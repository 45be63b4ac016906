#!/usr/bin/env node
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { isGatehouseApiError, WorkspaceGitError } from 'gatehouse-hitl-sdk';
import { runPhaseReviewAgent } from './agent.js';

const HELP = `gatehouse-phase-review-agent: a scripted agent (no LLM) whose phases are reviewed as pull requests

Usage: node examples/phase-review/dist/main.js [--url URL] [--token TOKEN] [--run RUN_ID] [--dir DIR]

Options:
  --url URL      the Gatehouse server (env GATEHOUSE_URL, default http://127.0.0.1:7300)
  --token TOKEN  an agent token, gha_... (env GATEHOUSE_TOKEN; create one with \`gatehouse agents create\`)
  --run RUN_ID   work in this run (default: create one, autonomy partial)
  --dir DIR      where to clone the run's repository (default: a new temporary directory)
  -h, --help     show this help

Phase 1 (strategic) writes plan.md and workspace.md on phase-1-strategic and waits for its review:
comment on lines and request changes, and it answers each comment on phase-1-strategic-rev-2.
Once approved (squash-merged into main), phase 2 (tactical) writes output/result.md from the merged
main, merged at once under autonomy partial; then the run asks for its final review.
`;

function usage(message: string): never {
  process.stderr.write(`${message}\n\n${HELP}`);
  process.exit(2);
}

function readOptions(): { url: string; token: string; runId: string | undefined; workDir: string } {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        run: { type: 'string' },
        dir: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    usage((error as Error).message);
  }
  if (values.help === true) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const token = (values.token as string | undefined) ?? process.env.GATEHOUSE_TOKEN;
  if (!token) usage('an agent token is required: --token gha_... or GATEHOUSE_TOKEN');
  return {
    url: (values.url as string | undefined) ?? process.env.GATEHOUSE_URL ?? 'http://127.0.0.1:7300',
    token,
    runId: values.run as string | undefined,
    workDir:
      (values.dir as string | undefined) ??
      join(mkdtempSync(join(tmpdir(), 'gatehouse-phase-review-')), 'repo'),
  };
}

async function main(): Promise<number> {
  const options = readOptions();
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const interrupted = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => interrupted.abort(new Error(`interrupted (${signal})`)));
  }
  try {
    const result = await runPhaseReviewAgent({ ...options, log, signal: interrupted.signal });
    log(`main is at ${result.mainCommit}; the clone is in ${options.workDir}`);
    return result.stopped === null ? 0 : 1;
  } catch (error) {
    if (isGatehouseApiError(error)) log(`\nstopped: ${error.code}: ${error.message}`);
    else if (error instanceof WorkspaceGitError) log(`\nstopped: ${error.message}`);
    else log(`\nstopped: ${(error as Error).message ?? String(error)}`);
    return 1;
  }
}

process.exitCode = await main();
