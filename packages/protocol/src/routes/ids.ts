import { z } from 'zod';

/** Gate ids as the server makes them: `gate_…`. */
export const gateIdSchema = z
  .string()
  .regex(/^gate_[A-Za-z0-9_]{1,64}$/, 'a gate id looks like gate_…')
  .describe('Gate id');

export const runIdSchema = z
  .string()
  .regex(/^run_[A-Za-z0-9_]{1,64}$/, 'a run id looks like run_…')
  .describe('Run id');

export const ruleIdSchema = z
  .string()
  .regex(/^rule_[A-Za-z0-9_]{1,64}$/, 'a rule id looks like rule_…')
  .describe('Remembered rule id');

export const userIdSchema = z
  .string()
  .regex(/^user_[A-Za-z0-9_]{1,64}$/, 'a person id looks like user_…')
  .describe('Person id');

export const agentIdSchema = z
  .string()
  .regex(/^agent_[A-Za-z0-9_]{1,64}$/, 'an agent id looks like agent_…')
  .describe('Agent id');

/** Names of people and agents: letters, digits and `._@-`, starting with a letter or digit. */
export const nameSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/,
    'names are 1-64 letters, digits or ._@- and start with a letter or digit',
  );

/** `limit` of a paged list. */
export function pageLimitSchema(defaultSize: number) {
  return z.coerce.number().int().min(1).max(500).default(defaultSize).describe('Page size');
}

/** `cursor` of gate and run lists: the `nextCursor` the previous page returned. */
export const idCursorSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,500}$/, 'a cursor is the nextCursor of the previous page')
  .describe('nextCursor of the previous page');

/** `cursor` of audit and delivery lists: the `nextCursor` the previous page returned. */
export const opaqueCursorSchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, 'a cursor is the nextCursor of the previous page')
  .describe('nextCursor of the previous page');

/** A list page's `nextCursor`: null on the last page. */
export const nextCursorSchema = z.string().nullable();
