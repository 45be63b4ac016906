import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  type ChangeInput,
  CoverageReportError,
  type CoverageSummary,
  diffToChanges,
  parseCoverage,
} from 'gatehouse-hitl-analysis';
import type { Io } from '../command.js';
import { changesFromGit, type GitTarget } from './check-git.js';

/** The input could not be read (missing file, not a diff, a broken coverage report): exit code 2. */
export class CheckInputError extends Error {
  override name = 'CheckInputError';
}

/** Where the change comes from: git (staged, range, commit) or a unified diff from a file or stdin. */
export type CheckSource = GitTarget | { kind: 'diff'; path: string };

/**
 * Reads the positional argument: nothing is the staged change, `-` or an existing file is a diff,
 * `A..B` / `A...B` a range, anything else one commit.
 */
export function sourceOf(argument: string | undefined, cwd: string): CheckSource {
  if (argument === undefined) return { kind: 'staged' };
  if (argument === '-') return { kind: 'diff', path: '-' };
  const path = resolve(cwd, argument);
  if (existsSync(path) && statSync(path).isFile()) return { kind: 'diff', path };
  if (/\.(diff|patch)$/.test(argument))
    throw new CheckInputError(`cannot read the diff ${path} (no such file)`);
  const range = /^(.*?)(\.\.\.?)(.*)$/.exec(argument);
  if (range) {
    const [, from = '', dots, to = ''] = range;
    return { kind: 'range', from, to, mergeBase: dots === '...' };
  }
  return { kind: 'commit', rev: argument };
}

async function readStdin(io: Io): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new CheckInputError(`cannot read ${what} ${path} (${reason})`);
  }
}

async function changesFromDiff(path: string, io: Io): Promise<ChangeInput['files']> {
  const text = path === '-' ? await readStdin(io) : readText(path, 'the diff');
  const where = path === '-' ? 'stdin' : path;
  if (text.trim() === '') throw new CheckInputError(`the diff on ${where} is empty`);
  const files = diffToChanges(text);
  if (files.length === 0) {
    throw new CheckInputError(`${where} is not a unified diff (no ---/+++ file headers or hunks found)`);
  }
  return files;
}

function readCoverage(path: string, cwd: string, option: string): CoverageSummary {
  const text = readText(resolve(cwd, path), `${option}`);
  try {
    const { linePercent, linesFound, linesHit } = parseCoverage(text);
    return { linePercent, linesFound, linesHit };
  } catch (error) {
    if (error instanceof CoverageReportError)
      throw new CheckInputError(`${option} ${path}: ${error.message}`);
    throw error;
  }
}

export interface CheckInputOptions {
  source: CheckSource;
  cwd: string;
  io: Io;
  coverage: { before: string; after: string } | null;
}

/** Everything `analyzeChange` needs: the changed files and, when given, both coverage reports. */
export async function readCheckInput(options: CheckInputOptions): Promise<ChangeInput> {
  const { source, cwd, io } = options;
  const coverage = options.coverage && {
    before: readCoverage(options.coverage.before, cwd, '--coverage-before'),
    after: readCoverage(options.coverage.after, cwd, '--coverage-after'),
  };
  const files =
    source.kind === 'diff' ? await changesFromDiff(source.path, io) : await changesFromGit(cwd, source);
  return coverage ? { files, coverage } : { files };
}
