import type { FileDiff } from 'gatehouse-hitl-protocol';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../testing/cli-in-process.js';
import { diffLines, useColour } from './review-print.js';

const SUBCOMMANDS = ['list', 'show', 'diff', 'comment', 'resolve', 'approve', 'request-changes', 'mcp'];

/** Runs the CLI in this process with no credentials, so any call to the server would fail loudly. */
const cli = (args: string[]) => runCliInProcess(args);

describe('gatehouse review, before anything is sent', () => {
  it('lists its subcommands in --help', async () => {
    const result = await cli(['review', '--help']);
    expect(result.code).toBe(0);
    for (const sub of SUBCOMMANDS) expect(result.stdout).toMatch(new RegExp(`^  ${sub}\\b`, 'm'));
    const top = await cli(['--help']);
    expect(top.stdout).toMatch(/^ {2}review /m);
  });

  it.each(SUBCOMMANDS)('`review %s --help` shows its usage', async (sub) => {
    const result = await cli(['review', sub, '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Usage: gatehouse review ${sub}`);
    expect(result.stderr).toBe('');
  });

  it.each([
    [['review', 'show'], 'needs <review-id>'],
    [['review', 'show', 'gate_1'], 'a review id looks like rev_…'],
    [['review', 'diff', 'rev_1', 'a.md', 'b.md'], "unexpected argument 'b.md'"],
    [['review', 'comment', 'rev_1'], 'needs --body'],
    [['review', 'comment', 'rev_1', '--body', 'x', '--line', '3'], '--line needs --path'],
    [
      ['review', 'comment', 'rev_1', '--body', 'x', '--path', 'a.md', '--line', '0'],
      '--line must be a whole number',
    ],
    [
      ['review', 'comment', 'rev_1', '--body', 'x', '--path', 'a.md', '--line', '2', '--side', 'left'],
      '--side must be one of new, old',
    ],
    [['review', 'comment', 'rev_1', '--body', 'x', '--side', 'old'], '--side applies to a line comment'],
    [['review', 'comment', 'rev_1', '--body', 'x', '--reply', 'rev_2'], '--reply takes a comment id'],
    [['review', 'resolve', 'rev_1'], 'needs <review-id> <comment-id>'],
    [['review', 'resolve', 'rev_1', 'gate_1'], 'a comment id looks like cmt_…'],
    [['review', 'request-changes', 'rev_1'], 'needs --feedback'],
    [['review', 'approve', 'rev_1', '--feedback', 'x'], "unknown option '--feedback'"],
    [['review', 'list', '--run', 'rev_1'], '--run takes a run id'],
    [['review', 'mcp'], 'needs --run'],
    [['review', 'mcp', '--run', 'run_1', '--json'], "unknown option '--json'"],
  ])('refuses %j with exit code 2: %s', async (args, message) => {
    const result = await cli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });

  it('needs a sign-in for a well-formed command', async () => {
    const result = await cli(['review', 'show', 'rev_1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('not signed in');
  });
});

describe('review diff output', () => {
  const diff: FileDiff = {
    path: 'docs/plan.md',
    oldPath: null,
    status: 'modified',
    binary: false,
    truncated: false,
    hunks: [
      {
        header: '@@ -1,2 +1,2 @@',
        oldStart: 1,
        oldLines: 2,
        newStart: 1,
        newLines: 2,
        lines: [
          { kind: 'context', oldLine: 1, newLine: 1, text: '# Plan' },
          { kind: 'del', oldLine: 2, newLine: null, text: 'old step\u001b[2J' },
          { kind: 'add', oldLine: null, newLine: 2, text: 'new step' },
        ],
      },
    ],
  };

  it('numbers old and new lines, and shows control characters as markers', () => {
    expect(diffLines(diff, false)).toEqual([
      'diff docs/plan.md (modified)',
      '@@ -1,2 +1,2 @@',
      '    1     1 │ # Plan',
      '    2       │-old step⟨U+001B⟩[2J',
      '          2 │+new step',
    ]);
  });

  it('colours added and removed lines only when asked', () => {
    const coloured = diffLines(diff, true);
    expect(coloured[3]).toBe('\u001b[31m    2       │-old step⟨U+001B⟩[2J\u001b[0m');
    expect(coloured[4]).toBe('\u001b[32m          2 │+new step\u001b[0m');
    expect(diffLines({ ...diff, binary: true, hunks: [] }, false)).toEqual([
      'diff docs/plan.md (modified)',
      '  binary file: no lines shown',
    ]);
  });

  it('colours on a terminal unless NO_COLOR or TERM=dumb', () => {
    expect(useColour({ write: () => 0, isTTY: true }, {})).toBe(true);
    expect(useColour({ write: () => 0, isTTY: false }, {})).toBe(false);
    expect(useColour({ write: () => 0, isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(useColour({ write: () => 0, isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });
});
