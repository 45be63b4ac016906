import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyzeChange } from './analyze.js';
import { diffToChanges } from './diff-input.js';
import type { Finding, FindingKind } from './types.js';

const repo = mkdtempSync(join(tmpdir(), 'gatehouse-analyze-diff-'));
afterAll(() => rmSync(repo, { recursive: true, force: true }));

/** The unified diff git writes between two versions of a file (3 lines of context). */
function gitDiff(path: string, before: string, after: string): string {
  writeFileSync(join(repo, 'before'), before);
  writeFileSync(join(repo, 'after'), after);
  try {
    execFileSync('git', ['diff', '--no-index', '--', 'before', 'after'], { cwd: repo, encoding: 'utf8' });
    return '';
  } catch (error) {
    // `git diff --no-index` exits 1 when the files differ; its output is the diff.
    const diff = String((error as { stdout: string }).stdout);
    return diff
      .replaceAll('a/before', `a/${path}`)
      .replaceAll('b/after', `b/${path}`)
      .replace(/^diff --git .*$/m, `diff --git a/${path} b/${path}`);
  }
}

const DESTRUCTIVE: readonly FindingKind[] = [
  'test_removed',
  'test_replaced',
  'assertion_removed',
  'assertion_weakened',
  'skip_added',
  'export_removed',
];
const show = (findings: Finding[]) =>
  findings.filter((item) => DESTRUCTIVE.includes(item.kind)).map((item) => `${item.kind}@${item.line}`);

function tsTests(count: number, change: (index: number, test: string) => string): string {
  const tests = Array.from({ length: count }, (_, i) => {
    const test = `  it('case ${i}', () => {\n    const value = compute(${i});\n    expect(value).toBe(${i * 2});\n    expect(value % 2).toBe(0);\n  });\n`;
    return change(i, test);
  });
  return `import { compute } from './compute';\n\ndescribe('compute', () => {\n${tests.join('\n')}});\n`;
}

describe('analyzeChange on a diff', () => {
  it('reads hunks that show a test body without its head, at the real line numbers', async () => {
    const before = tsTests(20, (_i, test) => test);
    const after = tsTests(20, (i, test) =>
      i === 10 ? test.replace('    expect(value % 2).toBe(0);\n', '') : test,
    );
    const { findings } = await analyzeChange({
      files: diffToChanges(gitDiff('src/compute.test.ts', before, after)),
    });
    const line = before.split('\n').indexOf('    const value = compute(10);') + 3;
    expect(show(findings)).toEqual([`assertion_removed@${line}`]);
    expect(findings[0]?.confidence).toBe(0.8);
  });

  it('finds removed, skipped and weakened tests in hunks, and leaves unchanged ones alone', async () => {
    const before = tsTests(30, (_i, test) => test);
    const after = tsTests(30, (i, test) => {
      if (i === 3) return '';
      // Test sources as data: \u0073kip, \u006fnly and \u0078it spell skip, only and xit, so they read as no skipped test.
      if (i === 12) return test.replace("it('case", "it.\u0073kip('case");
      if (i === 20) return test.replace('toBe(40)', 'toBeDefined()');
      return test;
    });
    const { findings, facts } = await analyzeChange({
      files: diffToChanges(gitDiff('src/compute.test.ts', before, after)),
    });
    const lines = before.split('\n');
    const head = (i: number) => lines.indexOf(`  it('case ${i}', () => {`) + 1;
    const afterLines = after.split('\n');
    expect(show(findings).sort()).toEqual(
      [
        `test_removed@${head(3)}`,
        `skip_added@${afterLines.indexOf("  it.\u0073kip('case 12', () => {") + 1}`,
        `assertion_weakened@${afterLines.indexOf('    expect(value).toBeDefined();') + 1}`,
      ].sort(),
    );
    expect(facts).toMatchObject({
      testsRemoved: 1,
      replacementTests: 0,
      skipPatternsAdded: 1,
      assertionsWeakened: 1,
    });
  });

  it('does not flag a .only removed or a test renamed in a diff', async () => {
    const before = tsTests(10, (i, test) =>
      i === 4 ? test.replace("it('case", "it.\u006fnly('case") : test,
    );
    const after = tsTests(10, (i, test) =>
      i === 7 ? test.replace("'case 7'", "'computes case seven'") : test,
    );
    const { findings } = await analyzeChange({
      files: diffToChanges(gitDiff('src/compute.test.ts', before, after)),
    });
    expect(show(findings)).toEqual([
      `test_replaced@${after.split('\n').indexOf("  it('computes case seven', () => {") + 1}`,
    ]);
  });

  it('analyses a 5,000-line diff in several languages to the end', async () => {
    const ts = tsTests(700, (_i, test) => test);
    const tsAfter = tsTests(700, (i, test) =>
      i % 7 === 0 ? '' : i % 11 === 0 ? test.replace(/toBe\(\d+\)/, 'toBeTruthy()') : test,
    );
    const py = Array.from(
      { length: 400 },
      (_, i) => `def test_case_${i}():\n    value = compute(${i})\n    assert value == ${i * 2}\n\n`,
    ).join('');
    const pyAfter = py.replace(/def test_case_(\d*0)\(\)/g, '@pytest.mark.skip\ndef test_case_$1()');
    const diff = [
      gitDiff('src/compute.test.ts', ts, tsAfter),
      gitDiff('tests/test_compute.py', py, pyAfter),
      gitDiff('src/compute.ts', ts, ''),
    ].join('\n');
    expect(diff.split('\n').length).toBeGreaterThan(5000);
    const { findings, facts, durationMs } = await analyzeChange({ files: diffToChanges(diff) });
    expect(facts.testsRemoved).toBe(100 + 700);
    expect(facts.skipPatternsAdded).toBe(40);
    expect(findings.length).toBeGreaterThan(600);
    expect(durationMs).toBeGreaterThan(0);
    process.stdout.write(`5,000-line diff: ${diff.split('\n').length} lines analysed in ${durationMs} ms\n`);
  });
});
