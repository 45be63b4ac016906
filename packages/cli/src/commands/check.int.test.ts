import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../testing/cli-in-process.js';
import type { CheckReport } from './check-verdict.js';

const TEST_FILE = `import { describe, expect, it } from 'vitest';
import { add, multiply } from './math.js';

describe('math', () => {
  it('adds two numbers', () => {
    expect(add(1, 2)).toBe(3);
  });

  it('multiplies two numbers', () => {
    expect(multiply(2, 3)).toBe(6);
  });
});
`;

const SOURCE = `export function add(a: number, b: number): number {
  return a + b;
}

export function multiply(a: number, b: number): number {
  return a * b;
}
`;

const dirs: string[] = [];

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-check-'));
  dirs.push(dir);
  return dir;
}

/** A real repository whose first commit holds a source file and its tests. */
function createRepo() {
  const dir = tempDir();
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  const commit = (message: string) => {
    git('add', '-A');
    git('commit', '-q', '-m', message);
    return git('rev-parse', 'HEAD').trim();
  };
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'dev@example.com');
  git('config', 'user.name', 'Dev');
  git('config', 'commit.gpgsign', 'false');
  write('src/math.ts', SOURCE);
  write('src/math.test.ts', TEST_FILE);
  const first = commit('math');
  return { dir, git, write, commit, first };
}

function check(args: string[], stdin = '') {
  return runCliInProcess(['check', ...args], {
    stdin,
    env: { XDG_CONFIG_HOME: '/nonexistent-gatehouse-config' },
  });
}

async function checkJson(args: string[], stdin = '') {
  const result = await check([...args, '--json'], stdin);
  return { ...result, report: JSON.parse(result.stdout) as CheckReport };
}

const withoutSecondTest = TEST_FILE.replace(/\n {2}it\('multiplies[\s\S]*?\n {2}}\);\n/, '\n');

describe('gatehouse check on a git repository', () => {
  it('opens a gate (exit 1) for a commit that deletes a test, naming the test and the rule', async () => {
    const repo = createRepo();
    repo.write('src/math.test.ts', withoutSecondTest);
    repo.commit('drop a test');
    const { code, report } = await checkJson(['HEAD', '--repo', repo.dir]);
    expect(code).toBe(1);
    expect(report.verdict).toBe('gate');
    expect(report.facts.testsRemoved).toBe(1);
    expect(report.destructive).toMatchObject({ triggered: true, autoApproved: null });
    expect(report.destructive.reasons.join(' ')).toContain('tests_removed 1');
    const removed = report.findings.find((finding) => finding.kind === 'test_removed');
    expect(removed).toMatchObject({ file: 'src/math.test.ts', line: 9, severity: 'high' });
  });

  it('prints a readable report grouped by file, with the verdict line', async () => {
    const repo = createRepo();
    // Test sources as data: \u0073kip, \u006fnly and \u0078it spell skip, only and xit, so they read as no skipped test.
    repo.write('src/math.test.ts', TEST_FILE.replace("it('adds two", "it.\u0073kip('adds two"));
    repo.commit('skip a test');
    const { code, stdout } = await check(['HEAD', '--repo', repo.dir]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^src\/math\.test\.ts\n {6}5 {2}high {6}\S+ +0\.\d\d {2}.+adds two numbers.+$/m);
    expect(stdout).toMatch(/^verdict: gate: .*skip_patterns_added 1/m);
  });

  it('fails a weakened assertion only from --fail-on medium, since one weakening opens no gate', async () => {
    const repo = createRepo();
    repo.write('src/math.test.ts', TEST_FILE.replace('toBe(3)', 'toBeDefined()'));
    repo.commit('weaken');
    const lenient = await checkJson(['HEAD', '--repo', repo.dir]);
    expect(lenient.report.facts.assertionsWeakened).toBe(1);
    expect(lenient.report.findings.map((f) => [f.kind, f.severity, f.line])).toContainEqual([
      'assertion_weakened',
      'medium',
      6,
    ]);
    expect([lenient.code, lenient.report.verdict, lenient.report.destructive.triggered]).toEqual([
      0,
      'pass',
      false,
    ]);
    const strict = await checkJson(['HEAD', '--repo', repo.dir, '--fail-on', 'medium']);
    expect([strict.code, strict.report.verdict]).toEqual([1, 'fail']);
  });

  it.each([
    ['an empty catch', 'lazy.error_swallowed', 'try {\n    return a + b;\n  } catch {}\n  return 0;'],
    ['a @ts-ignore', 'lazy.suppression_added', '// @ts-ignore\n  return a + b;'],
    ['an `as any` cast', 'lazy.suppression_added', 'return (a as any) + b;'],
  ])(
    'fails (exit 1) at default settings for a commit that adds %s to production code',
    async (_, pattern, body) => {
      const repo = createRepo();
      repo.write('src/math.ts', SOURCE.replace('return a + b;', body));
      repo.commit('cut a corner');
      const { code, report } = await checkJson(['HEAD', '--repo', repo.dir]);
      expect(report.findings.map((f) => [f.pattern, f.severity, f.file])).toContainEqual([
        pattern,
        'high',
        'src/math.ts',
      ]);
      expect([code, report.verdict]).toEqual([1, 'fail']);
    },
  );

  it('passes a lint suppression at default settings and fails it from --fail-on medium', async () => {
    const repo = createRepo();
    repo.write(
      'src/math.ts',
      SOURCE.replace('return a + b;', '// biome-ignore lint/style: sum\n  return a + b;'),
    );
    repo.commit('silence a lint rule');
    const lenient = await checkJson(['HEAD', '--repo', repo.dir]);
    expect(lenient.report.findings.map((f) => [f.pattern, f.severity])).toEqual([
      ['lazy.suppression_added', 'medium'],
    ]);
    expect([lenient.code, lenient.report.verdict]).toEqual([0, 'pass']);
    const strict = await checkJson(['HEAD', '--repo', repo.dir, '--fail-on', 'medium']);
    expect([strict.code, strict.report.verdict]).toEqual([1, 'fail']);
  });

  it('passes a test file renamed with its tests, and a test renamed with the same body', async () => {
    const repo = createRepo();
    repo.git('mv', 'src/math.test.ts', 'src/arithmetic.test.ts');
    repo.write('src/arithmetic.test.ts', TEST_FILE.replace('adds two numbers', 'sums two numbers'));
    repo.commit('rename');
    const { code, report } = await checkJson(['HEAD', '--repo', repo.dir]);
    expect(report.findings.filter((f) => f.severity !== 'low')).toEqual([]);
    expect(report.destructive.triggered).toBe(false);
    expect([code, report.verdict]).toEqual([0, 'pass']);
  });

  it('checks the staged changes against HEAD when given no range, as a pre-commit hook', async () => {
    const repo = createRepo();
    repo.write('src/math.test.ts', withoutSecondTest);
    const unstaged = await check(['--repo', repo.dir, '--quiet']);
    expect([unstaged.code, unstaged.stdout]).toEqual([0, '']);
    repo.git('add', 'src/math.test.ts');
    const staged = await check(['--repo', repo.dir, '--quiet']);
    expect(staged.code).toBe(1);
    expect(staged.stdout).toMatch(/^verdict: gate: .*tests_removed 1.*\n$/);
  });

  it('reads ranges A..B and A...B, and the first commit of a repository', async () => {
    const repo = createRepo();
    repo.write('src/math.test.ts', withoutSecondTest);
    const second = repo.commit('drop a test');
    expect((await check([`${repo.first}..${second}`, '--repo', repo.dir])).code).toBe(1);
    expect((await check([`${second}..${repo.first}`, '--repo', repo.dir, '-q'])).code).toBe(0);
    expect((await check([`${repo.first}...HEAD`, '--repo', repo.dir, '-q'])).code).toBe(1);
    const initial = await checkJson([repo.first, '--repo', repo.dir]);
    expect(initial.report.facts).toMatchObject({ testsRemoved: 0, testsAdded: 2 });
    expect(initial.code).toBe(0);
  });

  it('opens a gate when the coverage reports say coverage dropped more than 2 points', async () => {
    const repo = createRepo();
    repo.write('src/math.ts', `${SOURCE}\nexport const version = 2;\n`);
    repo.commit('grow');
    repo.write('before.info', 'SF:src/math.ts\nLF:100\nLH:90\nend_of_record\n');
    repo.write('after.info', 'SF:src/math.ts\nLF:100\nLH:85\nend_of_record\n');
    const coverage = ['--coverage-before', 'before.info', '--coverage-after', 'after.info'];
    const { code, report } = await checkJson(['HEAD', '--repo', repo.dir, ...coverage]);
    expect(report.facts.coverageDelta).toBe(-5);
    expect(report.destructive.reasons.join(' ')).toContain('coverage_delta -5');
    expect([code, report.verdict]).toEqual([1, 'gate']);
  });
});

describe('gatehouse check on a diff', () => {
  it('reads a unified diff from a file and from stdin', async () => {
    const repo = createRepo();
    repo.write('src/math.test.ts', withoutSecondTest);
    const diff = repo.git('diff');
    repo.write('change.diff', diff);
    const fromFile = await checkJson(['change.diff', '--repo', repo.dir]);
    expect([fromFile.code, fromFile.report.verdict, fromFile.report.facts.testsRemoved]).toEqual([
      1,
      'gate',
      1,
    ]);
    const fromStdin = await checkJson(['-'], diff);
    expect(fromStdin.report.findings).toEqual(fromFile.report.findings);
    expect(fromStdin.code).toBe(1);
  });

  it('refuses an empty diff, text that is no diff and a diff file that is missing (exit 2)', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'notes.txt'), 'just some notes\n');
    expect(await check(['-'], '')).toMatchObject({ code: 2, stderr: 'error: the diff on stdin is empty\n' });
    const notDiff = await check(['notes.txt', '--repo', dir]);
    expect([notDiff.code, notDiff.stderr]).toEqual([2, expect.stringContaining('is not a unified diff')]);
    const missing = await check(['gone.patch', '--repo', dir]);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('gone.patch (no such file)')]);
  });
});

describe('gatehouse check errors', () => {
  it.each([
    [['--fail-on', 'severe'], "--fail-on must be one of low, medium, high, critical (got 'severe')"],
    [['--coverage-before', 'a.info'], '--coverage-before and --coverage-after go together'],
    [['HEAD', 'HEAD~1'], "unexpected argument 'HEAD~1'"],
    [['--strict'], "unknown option '--strict'"],
  ])('is a usage error (exit 2): %j', async (args, message) => {
    const { code, stderr } = await check(args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stderr).toContain('gatehouse check --help');
  });

  it('exits 2 naming the report and its format when a coverage report is broken', async () => {
    const repo = createRepo();
    repo.write('good.info', 'SF:a.ts\nLF:1\nLH:1\n');
    repo.write('bad.json', '{"total":{"statements":{}}}');
    const args = [
      'HEAD',
      '--repo',
      repo.dir,
      '--coverage-before',
      'good.info',
      '--coverage-after',
      'bad.json',
    ];
    const { code, stderr } = await check(args);
    expect(code).toBe(2);
    expect(stderr).toBe(
      'error: --coverage-after bad.json: Istanbul JSON report: total has no "lines" object\n',
    );
  });

  it('exits 3 outside a git repository and for an unknown revision', async () => {
    const outside = await check(['--repo', tempDir()]);
    expect([outside.code, outside.stderr]).toEqual([
      3,
      expect.stringContaining('is not in a git repository'),
    ]);
    const repo = createRepo();
    const unknown = await check(['no-such-branch..HEAD', '--repo', repo.dir]);
    expect([unknown.code, unknown.stderr]).toEqual([
      3,
      expect.stringContaining("unknown revision 'no-such-branch'"),
    ]);
  });

  it('documents its exit codes and targets in --help', async () => {
    const { code, stdout } = await check(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: gatehouse check [<git range> | <commit> | <diff file> | -]');
    for (const line of [
      '0  pass',
      '1  a finding at or above --fail-on',
      '2  usage error',
      '3  not a git repository',
    ]) {
      expect(stdout).toContain(line);
    }
  });
});
