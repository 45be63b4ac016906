#!/usr/bin/env node
// Builds the change-analysis corpus: for each labelled commit in bench/corpus/labels.json, writes
// bench/corpus/changes/<id>.json with the whole before/after text of the commit's files that the label
// is about, read from a git copy of the public repository. Re-runnable: the output depends only on the
// labels and the commits, so running it again rewrites the same files. docs/analysis-accuracy.md says
// how the commits were chosen and labelled.
//
//   node scripts/build-analysis-corpus.mjs [--mirrors <dir>] [--cache <dir>] [--only <id>…]
//
// --mirrors  a directory of bare repositories named <owner>+<name>/repo (default /work/.mirror)
// --cache    where repositories missing from --mirrors are cloned (blobless) from GitHub
//            (default .cache/analysis-corpus)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = join(ROOT, 'bench/corpus');
const MAX_CHANGE_BYTES = 200 * 1024;
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|py|go|java|rs)$/;
const TEST_PATH =
  /(^|\/)(tests?|__tests__|spec|testing)(\/|$)|[._-](test|spec)s?\.\w+$|_test\.go$|(^|\/)test_\w+\.py$|Tests?\w*\.java$/;

const { values } = parseArgs({
  options: {
    mirrors: { type: 'string', default: '/work/.mirror' },
    cache: { type: 'string', default: join(ROOT, '.cache/analysis-corpus') },
    only: { type: 'string', multiple: true },
  },
});

function git(gitDir, args) {
  return execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
}

/** A bare copy of `repository` ("owner/name"): the mirror when present, else a blobless clone. */
function gitDirOf(repository) {
  const mirror = join(values.mirrors, repository.replace('/', '+'), 'repo');
  if (existsSync(mirror)) return mirror;
  const cached = join(values.cache, `${repository.replace('/', '+')}.git`);
  if (!existsSync(cached)) {
    mkdirSync(values.cache, { recursive: true });
    execFileSync(
      'git',
      ['clone', '--bare', '--filter=blob:none', `https://github.com/${repository}`, cached],
      {
        stdio: 'inherit',
      },
    );
  }
  return cached;
}

function readBlob(gitDir, rev, path) {
  try {
    return git(gitDir, ['show', `${rev}:${path}`]);
  } catch {
    return null;
  }
}

/** The commit's source files as renames, additions, deletions and modifications. */
function changedFiles(gitDir, parent, commit) {
  const lines = git(gitDir, ['diff', '--name-status', '-M', parent, commit]).split('\n').filter(Boolean);
  return lines.map((line) => {
    const [status, first, second] = line.split('\t');
    const renamed = status.startsWith('R');
    return { status: status[0], oldPath: renamed ? first : first, path: renamed ? second : first };
  });
}

/**
 * The files the label is about: the test files, and the other source files only when the label
 * names removed exports or the change touches no test file (a rename of source files, say).
 */
function relevant(files, label) {
  const tests = files.filter((file) => TEST_PATH.test(file.path) || TEST_PATH.test(file.oldPath ?? ''));
  if (tests.length === 0 || label.label.kinds.includes('export_removed')) return files;
  return tests;
}

/** Keeps the change under the size limit: tests first, then the smallest source files. */
function trim(files) {
  const size = (file) => (file.before?.length ?? 0) + (file.after?.length ?? 0);
  const ranked = [...files].sort(
    (a, b) => Number(TEST_PATH.test(b.path)) - Number(TEST_PATH.test(a.path)) || size(a) - size(b),
  );
  const kept = [];
  let total = 0;
  for (const file of ranked) {
    if (total + size(file) > MAX_CHANGE_BYTES) continue;
    kept.push(file);
    total += size(file);
  }
  return files.filter((file) => kept.includes(file));
}

function buildChange(label) {
  const gitDir = gitDirOf(label.repository);
  const parent = git(gitDir, ['rev-parse', `${label.commit}^`]).trim();
  const commit = git(gitDir, ['rev-parse', label.commit]).trim();
  const wanted = label.paths ? new Set(label.paths) : null;
  const files = [];
  for (const entry of changedFiles(gitDir, parent, commit)) {
    if (wanted ? !wanted.has(entry.path) : !SOURCE.test(entry.path)) continue;
    const before = entry.status === 'A' ? null : readBlob(gitDir, parent, entry.oldPath);
    const after = entry.status === 'D' ? null : readBlob(gitDir, commit, entry.path);
    if (before === null && after === null) continue;
    const file = { path: entry.path, before, after };
    if (entry.oldPath !== entry.path) file.oldPath = entry.oldPath;
    files.push(file);
  }
  const { paths: _paths, ...rest } = label;
  return { ...rest, commit, parent, files: trim(relevant(files, label)) };
}

const labels = JSON.parse(readFileSync(join(CORPUS, 'labels.json'), 'utf8'));
mkdirSync(join(CORPUS, 'changes'), { recursive: true });
let written = 0;
for (const label of labels) {
  if (values.only && !values.only.includes(label.id)) continue;
  const change = buildChange(label);
  if (change.files.length === 0) {
    console.error(`${label.id}: no source files left; skipped`);
    continue;
  }
  const ordered = {
    ...(change.set ? { set: change.set } : {}),
    id: change.id,
    repository: change.repository,
    commit: change.commit,
    parent: change.parent,
    files: change.files,
    label: change.label,
    why: change.why,
  };
  writeFileSync(join(CORPUS, 'changes', `${label.id}.json`), `${JSON.stringify(ordered, null, 2)}\n`);
  written += 1;
}
// Biome's JSON layout, so `biome check` passes on the data as on the code.
execFileSync(join(ROOT, 'node_modules/.bin/biome'), ['format', '--write', CORPUS], { stdio: 'ignore' });
console.log(`${written} changes written to bench/corpus/changes/`);
