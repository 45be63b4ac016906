import type { Command } from '../command.js';

const DETAILS = `Analyses a change locally (no server needed): tests removed, assertions removed or weakened,
skips added, exported features removed, laziness patterns and, given both reports, the coverage
delta. It decides like the server: the destructive-action trigger rules, with legitimate test
refactoring (every removed test replaced, coverage not dropped) auto-approved.

What is checked:
  (nothing)        the staged changes against HEAD, for a pre-commit hook
  <A>..<B>         the change from commit A to commit B (A...B: from their merge base)
  <commit>         one commit against its first parent
  <file> | -       a unified diff from a file or stdin (hunks only: lower confidence)

Coverage reports may be lcov, Istanbul JSON (coverage-summary.json, coverage-final.json) or
Cobertura XML; the format is told from the content.

Exit codes:
  0  pass
  1  a finding at or above --fail-on, or a destructive-action trigger (what would open a gate)
  2  usage error, or an unreadable diff or coverage report
  3  not a git repository, or git failed`;

export const checkCommand: Command = {
  name: 'check',
  summary: 'Check a change for removed tests, skips, weakened assertions and corner-cutting (CI, pre-commit)',
  actions: [
    {
      name: '',
      summary: 'Check the staged changes, a git range or commit, or a diff file',
      args: '[<git range> | <commit> | <diff file> | -]',
      positionals: { min: 0, max: 1 },
      // Its own --json: the report is computed here, not the API's answer.
      json: false,
      options: {
        json: {
          type: 'boolean',
          description: 'Print the verdict, findings, facts and gate decision as JSON',
        },
        'coverage-before': {
          type: 'string',
          value: '<file>',
          description: 'Coverage report before the change',
        },
        'coverage-after': {
          type: 'string',
          value: '<file>',
          description: 'Coverage report after the change',
        },
        'fail-on': {
          type: 'string',
          value: '<severity>',
          description:
            'Fail on findings of this severity or above: low, medium, high, critical (default high)',
        },
        quiet: {
          type: 'boolean',
          short: 'q',
          description: 'Print nothing on pass, only the verdict line otherwise',
        },
        repo: {
          type: 'string',
          value: '<dir>',
          description: 'The repository to check (default: the current directory)',
        },
      },
      details: DETAILS,
      examples: [
        'gatehouse check',
        'gatehouse check origin/main...HEAD --json',
        'gatehouse check HEAD~1 --coverage-before base/lcov.info --coverage-after coverage/lcov.info',
        'git diff main | gatehouse check - --fail-on medium',
      ],
      async run(context) {
        // Loaded on use, so other commands never load the parsers.
        const { runCheck } = await import('./check-run.js');
        return runCheck(context);
      },
    },
  ],
};
