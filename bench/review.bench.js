// A 500-file review on the server's git operations: the file list (`changedFiles`) and the slowest
// file's diff (`fileDiff`, a 20,000-line file changed throughout), against spawning `git --version`
// in the same run. Targets (issue 13): the list ≤ 1 s, any one file's diff ≤ 200 ms.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, gitText } from '../packages/server/dist/workspace/git.js';
import { changedFiles, fileDiff } from '../packages/server/dist/workspace/git-ops.js';
import { ensureRepo } from '../packages/server/dist/workspace/repos.js';
import { msSince, percentile } from './lib/stats.js';
import { report } from './report.js';

const FILES = 500;
const BIG_LINES = 20_000;
const RUNS = 20;
const TARGET_LIST_MS = 1000;
const TARGET_DIFF_MS = 200;
const BRANCH = 'phase-1-strategic';
const BIG_FILE = 'src/big/generated.ts';

const text = (lines, label) =>
  Array.from({ length: lines }, (_, i) => `${label} line ${i + 1} of the file\n`).join('');

/** One commit by `git fast-import`: `files` maps a path to its content, or null to delete it. */
function commitStream(ref, from, message, files, mark) {
  const parts = [`commit ${ref}`, `mark :${mark}`, 'committer Bench <bench@localhost> 1767225600 +0000'];
  parts.push(`data ${Buffer.byteLength(message)}`, message, `from ${from}`);
  for (const [path, content] of Object.entries(files)) {
    if (content === null) parts.push(`D ${path}`);
    else parts.push(`M 100644 inline ${path}`, `data ${Buffer.byteLength(content)}`, content);
  }
  return `${parts.join('\n')}\n`;
}

/**
 * main: 495 files of 200 lines and one of 20,000; the branch changes 470 of them in a few places,
 * rewrites every tenth line of the big one, renames 5, deletes 5 and adds 19: 500 changed files.
 */
export async function buildRepo(reposDir) {
  const repo = await ensureRepo(reposDir, 'run_bench');
  const main = await gitText(repo, ['rev-parse', 'main']);
  const base = { [BIG_FILE]: text(BIG_LINES, 'big') };
  for (let i = 0; i < 495; i++) base[`src/mod${Math.floor(i / 50)}/file ${i}.ts`] = text(200, `f${i}`);
  const branch = {};
  for (let i = 0; i < 470; i++) {
    const before = base[`src/mod${Math.floor(i / 50)}/file ${i}.ts`];
    branch[`src/mod${Math.floor(i / 50)}/file ${i}.ts`] = before
      .replace(`f${i} line 10 of`, `f${i} line ten of`)
      .replace(`f${i} line 150 of`, `f${i} line 150 changed, of`);
  }
  for (let i = 470; i < 475; i++) {
    const path = `src/mod${Math.floor(i / 50)}/file ${i}.ts`;
    branch[path] = null;
    branch[`src/moved/file ${i}.ts`] = base[path];
  }
  for (let i = 475; i < 480; i++) branch[`src/mod${Math.floor(i / 50)}/file ${i}.ts`] = null;
  for (let i = 0; i < 19; i++) branch[`docs/added ${i}.md`] = text(40, `doc${i}`);
  branch[BIG_FILE] = base[BIG_FILE].replace(/big line (\d*0) of/g, 'big line $1 (changed) of');
  const stream =
    commitStream('refs/heads/main', main, 'base', base, 1) +
    commitStream(`refs/heads/${BRANCH}`, ':1', 'phase 1', branch, 2);
  await git(repo, ['fast-import', '--quiet'], { input: stream });
  return repo;
}

/** CPU milliseconds this process and its finished children (the git commands) have used. */
function cpuMs() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // utime, stime, cutime, cstime are fields 14–17 of stat(5), in clock ticks (100 a second on Linux).
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) * 10;
}

/** Wall-clock samples (sorted) and the mean CPU time of one call, git's included. */
async function time(samples, action) {
  const values = [];
  const cpuStart = cpuMs();
  for (let i = 0; i < samples; i++) {
    const start = process.hrtime.bigint();
    await action();
    values.push(msSince(start));
  }
  return { wall: Float64Array.from(values).sort(), cpu: (cpuMs() - cpuStart) / samples };
}

function verdict(name, p95, target) {
  console.error(
    `${name}: target ≤ ${target} ms ${p95 <= target ? 'met' : 'missed'} (p95 ${p95.toFixed(1)} ms)`,
  );
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-review-'));
  try {
    const repo = await buildRepo(dir);
    const files = await changedFiles(repo, 'main', BRANCH);
    if (files.length !== FILES) throw new Error(`expected ${FILES} changed files, got ${files.length}`);
    const diff = await fileDiff(repo, 'main', BRANCH, BIG_FILE);
    if (diff.truncated || diff.hunks.length < 100) throw new Error('the big file’s diff is not whole');
    const baseline = await time(RUNS * 5, () => git(repo, ['--version']));
    const figures = [
      ['review.changed-files.500', await time(RUNS, () => changedFiles(repo, 'main', BRANCH))],
      ['review.file-diff.20k-lines', await time(RUNS, () => fileDiff(repo, 'main', BRANCH, BIG_FILE))],
      [
        'review.file-diff.renamed',
        await time(RUNS, () => fileDiff(repo, 'main', BRANCH, 'src/moved/file 472.ts')),
      ],
    ];
    for (const [name, { wall, cpu }] of figures) {
      for (const p of [50, 95]) {
        report(`${name}.p${p}`, {
          value: percentile(wall, p),
          unit: 'ms',
          baseline: percentile(baseline.wall, p),
        });
      }
      // CPU time is what the machine's load does not change: the figure to compare across runs.
      report(`${name}.cpu`, { value: cpu, unit: 'ms', baseline: baseline.cpu });
    }
    verdict('review.changed-files.500', percentile(figures[0][1].wall, 95), TARGET_LIST_MS);
    verdict('review.file-diff.20k-lines', percentile(figures[1][1].wall, 95), TARGET_DIFF_MS);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
