import { autonomyLevelSchema, roleSchema } from 'gatehouse-hitl-core';
import { z } from 'zod';

/** Names of people and agents: letters, digits and `._@-`, starting with a letter or digit. */
export const nameSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/,
    'names are 1-64 letters, digits or ._@- and start with a letter or digit',
  );

export const userIdSchema = z
  .string()
  .regex(/^user_[A-Za-z0-9_]{1,64}$/, 'a person id looks like user_…')
  .describe('Person id');
export const agentIdSchema = z
  .string()
  .regex(/^agent_[A-Za-z0-9_]{1,64}$/, 'an agent id looks like agent_…')
  .describe('Agent id');

export const userSchema = z
  .object({
    id: z.string().describe('Person id'),
    name: z.string().describe('Login name'),
    role: roleSchema.describe('viewer < developer < tech_lead < admin'),
    disabled: z.boolean().describe('Disabled people cannot sign in and their sessions are revoked'),
    createdAt: z.number().describe('Epoch ms'),
  })
  .describe('A person');

export const agentSchema = z
  .object({
    id: z.string().describe('Agent id'),
    name: z.string().describe('Display name'),
    profile: z
      .string()
      .nullable()
      .describe('Expert type (coder, debugger, …) that picks the default autonomy'),
    autonomy: autonomyLevelSchema
      .nullable()
      .describe('Default autonomy of its runs; null = from the profile'),
    createdAt: z.number().describe('Epoch ms'),
    createdBy: z
      .string()
      .nullable()
      .optional()
      .describe('Person who created it and owns it; null for agents made before owners were kept'),
  })
  .describe('An agent');

export const signingKeySchema = z.object({
  id: z.string().describe('Key id'),
  fingerprint: z.string().describe('SHA-256 of the raw public key, hex'),
  publicKey: z.string().describe('The key as registered (PEM or raw base64)'),
  createdAt: z.number().describe('Epoch ms'),
});

export const sessionSchema = z.object({
  token: z.string().describe('Session token (ghs_…); also set as the gatehouse_session cookie'),
  expiresAt: z.number().describe('Epoch ms when the session ends'),
  user: userSchema,
});
