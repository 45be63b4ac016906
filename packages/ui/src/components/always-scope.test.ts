import { describe, expect, it } from 'vitest';
import { allowedSentence, scopeChoices, scopeProblem, withText } from './always-scope.js';

describe('the "approve always" form', () => {
  it('says in one sentence what a rule will let through, where and until when', () => {
    const prefix = { kind: 'prefix', prefix: 'npm test' } as const;
    expect(allowedSentence({ tool: 'bash', match: prefix, scope: 'run', expiry: null })).toBe(
      'Later bash calls whose command starts with “npm test” in this run go ahead without a gate, until the rule is revoked.',
    );
    expect(
      allowedSentence({
        tool: 'edit_file',
        match: { kind: 'path', glob: 'src/**' },
        scope: 'agent',
        expiry: '7 days',
      }),
    ).toBe(
      'Later edit_file calls on files matching “src/**” from this agent, in any of its runs go ahead without a gate, for 7 days.',
    );
    expect(
      allowedSentence({ tool: 'deploy', match: { kind: 'tool' }, scope: 'global', expiry: '1 day' }),
    ).toBe(
      'Later deploy calls that carry no command, code or paths from any agent go ahead without a gate, for 1 day.',
    );
  });

  it('offers the scopes core suggests, and checks an edited prefix against the gate’s own call', () => {
    const action = { tool: 'bash', args: { command: 'npm test -- --watch' } };
    const { options, refusal } = scopeChoices(action);
    expect(refusal).toBeNull();
    expect(options[0]).toEqual({ kind: 'prefix', prefix: 'npm test' });
    const prefix = options[0] as (typeof options)[number];
    expect(scopeProblem(withText(prefix, ' npm  '), action)).toBeNull();
    expect(scopeProblem(withText(prefix, 'npm run'), action)).toMatch(/does not cover the call/);
    expect(scopeProblem(withText(prefix, 'sh'), action)).toMatch(/sh runs whatever/);
    expect(scopeProblem(withText(prefix, '  '), action)).toMatch(/Type the words/);
  });

  it('says why none is offered for an always-gated call', () => {
    const { options, refusal } = scopeChoices({ tool: 'bash', args: { command: 'rm -rf build' } });
    expect(options).toEqual([]);
    expect(refusal).toMatch(/always-gated/);
  });
});
