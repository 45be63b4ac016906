import { analyzeChange, type Severity } from 'gatehouse-hitl-analysis';
import { stringOption } from '../args.js';
import type { ActionContext } from '../command.js';
import { UsageError } from '../errors.js';
import { printJson } from '../output.js';
import { GitError } from './check-git.js';
import { CheckInputError, readCheckInput, sourceOf } from './check-input.js';
import { printCheckReport, verdictLine } from './check-report.js';
import { decideCheck, SEVERITIES } from './check-verdict.js';

/** Exit codes of `gatehouse check`. */
export const CHECK_EXIT = { pass: 0, blocked: 1, usage: 2, git: 3 } as const;

function failOnOf(values: ActionContext['values']): Severity {
  const value = stringOption(values, 'fail-on') ?? 'high';
  if (!(SEVERITIES as readonly string[]).includes(value)) {
    throw new UsageError(`--fail-on must be one of ${SEVERITIES.join(', ')} (got '${value}')`, 'check');
  }
  return value as Severity;
}

function coverageOf(values: ActionContext['values']): { before: string; after: string } | null {
  const before = stringOption(values, 'coverage-before');
  const after = stringOption(values, 'coverage-after');
  if (before === undefined && after === undefined) return null;
  if (before === undefined || after === undefined) {
    throw new UsageError('--coverage-before and --coverage-after go together; give both reports', 'check');
  }
  return { before, after };
}

async function check(context: ActionContext): Promise<number> {
  const { io, values, positionals } = context;
  const failOn = failOnOf(values);
  const coverage = coverageOf(values);
  const cwd = stringOption(values, 'repo') ?? process.cwd();
  const input = await readCheckInput({ source: sourceOf(positionals[0], cwd), cwd, io, coverage });
  const result = await analyzeChange(input);
  const report = decideCheck(result, failOn);
  if (context.json) printJson(io, report);
  else if (values.quiet !== true) printCheckReport(io.stdout, report, input.files.length);
  else if (report.verdict !== 'pass') io.stdout.write(`${verdictLine(report)}\n`);
  return report.verdict === 'pass' ? CHECK_EXIT.pass : CHECK_EXIT.blocked;
}

/** Runs `gatehouse check` and returns its exit code; unreadable input and git failures are reported here. */
export async function runCheck(context: ActionContext): Promise<number> {
  try {
    return await check(context);
  } catch (error) {
    if (!(error instanceof CheckInputError) && !(error instanceof GitError)) throw error;
    context.io.stderr.write(`error: ${error.message}\n`);
    return error instanceof GitError ? CHECK_EXIT.git : CHECK_EXIT.usage;
  }
}
