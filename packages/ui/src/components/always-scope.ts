import {
  type Action,
  type StandingScope,
  standingScopeRefusal,
  suggestStandingScopes,
} from 'gatehouse-hitl-core';
import type { RuleScope } from '../api/rules.js';

/** The text a person may edit in a scope: the prefix, the glob or the command; none for the whole tool. */
export function scopeText(match: StandingScope): string {
  switch (match.kind) {
    case 'prefix':
      return match.prefix;
    case 'path':
      return match.glob;
    case 'command':
      return match.command;
    case 'tool':
      return '';
  }
}

/** True for the scopes whose text the form lets the person change (a prefix or a glob). */
export function isEditable(match: StandingScope): boolean {
  return match.kind === 'prefix' || match.kind === 'path';
}

/** The suggested scope with the person's text in place of core's. */
export function withText(match: StandingScope, text: string): StandingScope {
  const trimmed = text.trim();
  switch (match.kind) {
    case 'prefix':
      return { kind: 'prefix', prefix: trimmed };
    case 'path':
      return { kind: 'path', glob: trimmed };
    case 'command':
    case 'tool':
      return match;
  }
}

/** Why the chosen scope cannot be remembered for this call (core's rule, as the server checks it); null when it can. */
export function scopeProblem(match: StandingScope, action: Action): string | null {
  if (match.kind === 'prefix' && match.prefix === '') return 'Type the words the command starts with.';
  if (match.kind === 'path' && match.glob === '') return 'Type the files to cover, such as src/**.';
  const refusal = standingScopeRefusal(match, action);
  return refusal === null ? null : `This scope cannot be remembered: ${refusal}.`;
}

/** The scopes "approve always" may remember for this call, the suggestion first, or why none. */
export function scopeChoices(action: Action | null): { options: StandingScope[]; refusal: string | null } {
  if (action === null) return { options: [], refusal: 'only a tool call can be remembered' };
  return suggestStandingScopes(action);
}

/** One choice's label: what later calls it covers, in words. */
export function scopeLabel(match: StandingScope): string {
  switch (match.kind) {
    case 'prefix':
      return 'Commands that start with these words';
    case 'command':
      return `Only this exact command: ${match.command}`;
    case 'path':
      return 'Files matching this pattern';
    case 'tool':
      return 'Every call of the tool that carries no command, code or paths';
  }
}

function coveredCalls(match: StandingScope): string {
  switch (match.kind) {
    case 'prefix':
      return `whose command starts with “${match.prefix}”`;
    case 'command':
      return `whose command is exactly “${match.command}”`;
    case 'path':
      return `on files matching “${match.glob}”`;
    case 'tool':
      return 'that carry no command, code or paths';
  }
}

const WHERE: Readonly<Record<RuleScope, string>> = {
  run: 'in this run',
  agent: 'from this agent, in any of its runs',
  global: 'from any agent',
};

/**
 * What the rule will let through, as one plain sentence.
 * @example allowedSentence({ tool: 'bash', match: { kind: 'prefix', prefix: 'npm test' }, scope: 'run', expiry: null })
 * // 'Later bash calls whose command starts with “npm test” in this run go ahead without a gate, until the rule is revoked.'
 */
export function allowedSentence(input: {
  tool: string;
  match: StandingScope;
  scope: RuleScope;
  /** How long the rule lasts in words (`7 days`), or null until revoked. */
  expiry: string | null;
}): string {
  const until = input.expiry === null ? 'until the rule is revoked' : `for ${input.expiry}`;
  return `Later ${input.tool} calls ${coveredCalls(input.match)} ${WHERE[input.scope]} go ahead without a gate, ${until}.`;
}
