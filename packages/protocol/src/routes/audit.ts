import { z } from 'zod';
import { defineRoute } from '../route-table/define.js';
import { nextCursorSchema, opaqueCursorSchema, pageLimitSchema } from './ids.js';

export const auditEventDocumentSchema = z
  .object({
    seq: z.number().describe('Position in the chain'),
    id: z.string().describe('Event id'),
    at: z.number().describe('Epoch ms'),
    kind: z.string().describe('What happened, e.g. gate.decided'),
    actor: z.string().describe('user:<id>, agent:<id>, system:<job> or anonymous'),
    subject: z.string().nullable().describe('The object it happened to'),
    data: z.record(z.string(), z.unknown()).describe('Details; never a secret'),
    prevHash: z.string().describe('Hash of the previous event'),
    hash: z.string().describe('SHA-256 over prevHash and this event'),
  })
  .describe('One link of the hash-chained audit trail');

const time = z.coerce.number().int().min(0).max(8_640_000_000_000_000);

/** `GET /v1/audit`. */
export const auditQuerySchema = z.strictObject({
  kind: z.string().max(100).optional().describe('Only this kind'),
  actor: z.string().max(200).optional().describe('Only this actor, e.g. user:user_…'),
  actorName: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Only events by the person or agent with this name; not together with actor'),
  subject: z.string().max(200).optional().describe('Only this subject id'),
  since: time.optional().describe('At or after this epoch ms'),
  until: time.optional().describe('Before this epoch ms'),
  limit: pageLimitSchema(100),
  cursor: opaqueCursorSchema.optional(),
  order: z.enum(['asc', 'desc']).default('asc').describe('asc: oldest first; desc: newest first'),
});

export const auditPageSchema = z.object({
  items: z.array(auditEventDocumentSchema),
  nextCursor: nextCursorSchema,
});

/** `GET /v1/audit/verify`. */
export const auditVerifyResponseSchema = z.union([
  z.object({
    ok: z.literal(true),
    count: z.number().describe('Events checked'),
    lastHash: z.string().nullable(),
    checkpoints: z.number().describe('Signed checkpoints whose signature and hash were checked'),
    lastCheckpoint: z
      .object({ seq: z.number(), at: z.number() })
      .nullable()
      .describe('The newest signed checkpoint: everything up to its seq is vouched for'),
  }),
  z.object({
    ok: z.literal(false),
    seq: z.number().describe('The first sequence number found wrong'),
    reason: z
      .string()
      .describe(
        'hash_mismatch, broken_link, gap, reordered, bad_signature, checkpoint_mismatch, truncated or unsigned_start',
      ),
    checkpoint: z
      .object({ seq: z.number(), at: z.number(), source: z.enum(['chain', 'heads', 'start']) })
      .optional()
      .describe('The first bad signed checkpoint, when a checkpoint is what failed'),
  }),
]);

/** `GET /v1/audit/key`. */
export const auditKeyResponseSchema = z.object({
  algorithm: z.literal('Ed25519'),
  keyId: z.string().describe('First 16 hex digits of sha256 over the SPKI DER bytes'),
  publicKey: z.string().describe('SPKI PEM: pass it to `gatehouse audit verify --public-key`'),
});

export type AuditEventDocument = z.infer<typeof auditEventDocumentSchema>;
export type AuditQuery = z.input<typeof auditQuerySchema>;
export type AuditPage = z.infer<typeof auditPageSchema>;
export type AuditVerifyResponse = z.infer<typeof auditVerifyResponseSchema>;
export type AuditKeyResponse = z.infer<typeof auditKeyResponseSchema>;

const tags = ['audit'];

/** The audit trail: query, verify the chain and its signed checkpoints, the public key (the JSON Lines export is not JSON). */
export const auditRoutes = {
  export: defineRoute({
    method: 'GET',
    path: '/v1/audit/export',
    tags,
    description:
      'Signs the head first, then JSON Lines: `{"checkpoint":{…}}` first when the trail was truncated, then one event per line (docs/audit.md)',
    produces: ['application/x-ndjson'],
    response: { 200: z.string().describe('JSON Lines, one audit event per line') },
  }),
  query: defineRoute({
    method: 'GET',
    path: '/v1/audit',
    tags,
    query: auditQuerySchema,
    response: { 200: auditPageSchema },
  }),
  verify: defineRoute({
    method: 'GET',
    path: '/v1/audit/verify',
    tags,
    response: { 200: auditVerifyResponseSchema },
  }),
  key: defineRoute({
    method: 'GET',
    path: '/v1/audit/key',
    tags,
    description: 'The public key that signs audit checkpoints, for verifying an export offline',
    response: { 200: auditKeyResponseSchema },
  }),
};
