#!/usr/bin/env node
// Lists candidate commits for the change-analysis corpus (bench/corpus, docs/analysis-accuracy.md) from a
// bare git copy: non-merge commits changing at most six files, at least one of them a test file, sorted
// into candidate groups by what their diff adds and removes in test files (test definitions by name,
// assertions, skip markers) and in source files (exported names). It only proposes: every commit that
// goes into labels.json is read and labelled by hand. Prints one JSON object per candidate with the
// removed and added lines that decided its group, so the diff can be read next to it.
//
//   node scripts/find-analysis-candidates.mjs --git-dir <bare repo> [--max <commits>]
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { 'git-dir': { type: 'string' }, max: { type: 'string', default: '4000' } },
});
const TEST_PATH =
  /(^|\/)(tests?|__tests__|spec|testing)(\/|$)|[._-](test|spec)s?\.\w+$|_test\.go$|(^|\/)test_\w+\.py$|Tests?\w*\.java$/;
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs|py|go|java|rs)$/;
const TEST_NAME = [
  /\b(?:it|test)(?:\.only|\.skip|\.todo)?\s*\(\s*(['"`])(.+?)\1/,
  /\bdef (test\w*)\s*\(/,
  /\bfunc (Test\w+)\s*\(/,
  /\bvoid (test\w+|\w+Test\w*)\s*\(/,
  /^\s*(?:async )?fn (\w+)\s*\(/,
];
const ASSERTION =
  /\bexpect\(|\bassert\w*[!(. ]|\.should\b|\bassertThat\(|\bfail\(|\bt\.(?:Error|Errorf|Fatal|Fatalf)\(|\b(?:assert|require)\.\w+\(|pytest\.raises\(/;
const SKIP =
  /\.skip\b|\.todo\(|skipIf|@pytest\.mark\.(?:skip|xfail)|pytest\.(?:skip|xfail)\(|unittest\.skip|\bt\.Skip(?:f|Now)?\(|@Disabled|@Ignore|#\[ignore/;
const EXPORT = [
  /^export (?:default )?(?:async )?(?:function\*?|class|const|let|var|type|interface|enum) (\w+)/,
  /^(?:module\.)?exports\.(\w+)\s*=/,
  /^func (?:\([^)]*\) )?([A-Z]\w*)\s*[([]/,
  /^(?:type|var|const) ([A-Z]\w*)\b/,
  /^\s*public (?:static |final |abstract |synchronized )*(?:class |interface |enum |@interface )?[\w<>[\], ?.]*?\b(\w+)\s*[({]/,
  /^\s*pub (?:const |async |unsafe )*(?:fn|struct|enum|trait|type|const|static|mod|macro) (\w+)/,
  /^(?:def|class) ([A-Za-z]\w*)/,
];

function git(args) {
  return execFileSync('git', ['--git-dir', values['git-dir'], ...args], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
}

function nameOf(patterns, line) {
  for (const pattern of patterns) {
    const match = pattern.exec(line);
    if (match) return match[match.length - 1];
  }
  return null;
}

/** One commit's diff summarised: names, assertions and skips removed and added, per side. */
function summarise(commit, subject, diff) {
  const files = [];
  const s = { removedTests: [], addedTests: [], removedExports: [], addedExports: [], lines: [] };
  let assertionsRemoved = 0;
  let assertionsAdded = 0;
  let skipsRemoved = 0;
  let skipsAdded = 0;
  let file = null;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) {
      file = line.split(' b/')[1] ?? null;
      files.push(file);
      continue;
    }
    if (!file || !SOURCE.test(file) || line.startsWith('+++') || line.startsWith('---')) continue;
    const sign = line[0];
    if (sign !== '+' && sign !== '-') continue;
    const text = line.slice(1);
    const isTest = TEST_PATH.test(file);
    const interesting = isTest
      ? nameOf(TEST_NAME, text) || ASSERTION.test(text) || SKIP.test(text)
      : nameOf(EXPORT, text);
    if (!interesting) continue;
    if (isTest) {
      const name = nameOf(TEST_NAME, text);
      if (name) (sign === '-' ? s.removedTests : s.addedTests).push(name);
      if (ASSERTION.test(text)) sign === '-' ? assertionsRemoved++ : assertionsAdded++;
      if (SKIP.test(text)) sign === '-' ? skipsRemoved++ : skipsAdded++;
    } else {
      const name = nameOf(EXPORT, text);
      if (name) (sign === '-' ? s.removedExports : s.addedExports).push(name);
    }
    if (s.lines.length < 24) s.lines.push(`${file.split('/').pop()}: ${line.slice(0, 140)}`);
  }
  const gone = (removed, added) => removed.filter((name) => !added.includes(name));
  const testsGone = gone(s.removedTests, s.addedTests);
  const exportsGone = gone(s.removedExports, s.addedExports);
  const groups = [];
  if (skipsAdded > skipsRemoved) groups.push('skip_added?');
  if (skipsRemoved > skipsAdded) groups.push('skip_removed');
  if (testsGone.length > 0) groups.push('test_removed?');
  if (testsGone.length === 0 && assertionsRemoved > assertionsAdded) groups.push('assertion_removed?');
  if (exportsGone.length > 0) groups.push('export_removed?');
  if (groups.length === 0 && assertionsRemoved === 0 && s.removedTests.length === 0) groups.push('added');
  if (groups.length === 0) groups.push('refactor');
  return {
    commit,
    subject,
    files,
    groups,
    testsGone,
    exportsGone,
    assertions: [assertionsRemoved, assertionsAdded],
    skips: [skipsRemoved, skipsAdded],
    lines: s.lines,
  };
}

const log = git(['log', '--no-merges', `--max-count=${values.max}`, '--format=%H%x09%s', 'HEAD']);
for (const entry of log.split('\n').filter(Boolean)) {
  const [commit, subject] = entry.split('\t');
  const names = git(['diff-tree', '--no-commit-id', '-r', '-M', '--name-only', commit])
    .split('\n')
    .filter(Boolean);
  if (names.length === 0 || names.length > 6 || !names.some((name) => TEST_PATH.test(name))) continue;
  const diff = git(['show', '--format=', '-U0', '-M', commit]);
  const summary = summarise(commit, subject, diff);
  const renamesOnly = /^similarity index (9\d|100)%/m.test(diff) && !/^[-+][^-+]/m.test(diff);
  if (renamesOnly) summary.groups = ['renamed'];
  console.log(JSON.stringify(summary));
}
