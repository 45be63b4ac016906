import { z } from 'zod';
import { autonomyLevelSchema, roleSchema } from '../enums.js';

export const userDocumentSchema = z
  .object({
    id: z.string().describe('Person id'),
    name: z.string().describe('Login name'),
    role: roleSchema.describe('viewer < developer < tech_lead < admin'),
    disabled: z.boolean().describe('Disabled people cannot sign in and their sessions are revoked'),
    createdAt: z.number().describe('Epoch ms'),
  })
  .describe('A person');

export const agentDocumentSchema = z
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

export const signingKeyDocumentSchema = z.object({
  id: z.string().describe('Key id'),
  fingerprint: z.string().describe('SHA-256 of the raw public key, hex'),
  publicKey: z.string().describe('The key as registered (PEM or raw base64)'),
  name: z.string().nullable().describe('What its owner calls it ("Work laptop"); null until named'),
  createdAt: z.number().describe('Epoch ms'),
  lastUsedAt: z
    .number()
    .nullable()
    .describe('Epoch ms when a decision signed with it last verified; null if it never signed one'),
});

/** A person as the people routes return them. */
export type UserDocument = z.infer<typeof userDocumentSchema>;
/** An agent as the agent routes return it. */
export type AgentDocument = z.infer<typeof agentDocumentSchema>;
/** A person's registered signing key. */
export type SigningKeyDocument = z.infer<typeof signingKeyDocumentSchema>;
