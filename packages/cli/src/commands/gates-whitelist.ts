import { intOption, stringOption } from '../args.js';
import type { ActionContext } from '../command.js';
import type { DecisionBody } from '../decide.js';
import { UsageError } from '../errors.js';

const WHITELIST_OPTIONS = ['whitelist-path', 'whitelist-agents', 'whitelist-days'] as const;
// The longest a whitelist entry suppresses before it needs review again, as the server allows.
const MAX_WHITELIST_DAYS = 90;

/**
 * The scope of the entry `--option whitelist` creates, as the person typed it: `--whitelist-path`
 * (a glob matching the finding's file), `--whitelist-agents every`, `--whitelist-days`; none = the
 * finding's file, the gate's agent, 90 days.
 */
export function whitelistOf(context: ActionContext, option: string): DecisionBody['whitelist'] {
  const { values, command } = context;
  const given = WHITELIST_OPTIONS.filter((name) => values[name] !== undefined);
  if (option !== 'whitelist') {
    if (given[0] !== undefined)
      throw new UsageError(`--${given[0]} is for a Whitelist decision; add --option whitelist`, command);
    return undefined;
  }
  if (given.length === 0) return undefined;
  const path = stringOption(values, 'whitelist-path');
  const agents = stringOption(values, 'whitelist-agents');
  if (agents !== undefined && agents !== 'this' && agents !== 'every')
    throw new UsageError(`--whitelist-agents must be this or every, not ${agents}`, command);
  const days = intOption(values, 'whitelist-days', { min: 1, max: MAX_WHITELIST_DAYS, command });
  return {
    ...(path === undefined ? {} : { path }),
    ...(agents === undefined ? {} : { agents }),
    ...(days === undefined ? {} : { expiresInDays: days }),
  };
}

/** The chosen scope in one line, said before the decision is sent. */
export function whitelistLine(choice: {
  path?: string | null | undefined;
  agents?: 'this' | 'every' | undefined;
  expiresInDays?: number | undefined;
}): string {
  const files = choice.path == null ? "the finding's file" : `files matching ${choice.path}`;
  const agents = choice.agents === 'every' ? 'every agent' : "the gate's agent only";
  return `whitelisting ${files}, for ${agents}, for ${choice.expiresInDays ?? MAX_WHITELIST_DAYS} days`;
}

/** The options of `gates decide` that choose a whitelist entry's scope. */
export const WHITELIST_FLAGS = {
  'whitelist-path': {
    type: 'string',
    value: '<glob>',
    description:
      "With --option whitelist: the files the entry covers, a glob matching the finding's file (default: that file only)",
  },
  'whitelist-agents': {
    type: 'string',
    value: '<this|every>',
    description: "With --option whitelist: the gate's agent only (this, the default) or every agent",
  },
  'whitelist-days': {
    type: 'string',
    value: '<days>',
    description: 'With --option whitelist: days until the entry needs review again (1 to 90, default 90)',
  },
} as const;
