import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { requireUser } from '../http/principal.js';
import type { Services } from '../services/index.js';

const auditEventSchema = z
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

const auditQuery = z.strictObject({
  kind: z.string().max(100).optional().describe('Only this kind'),
  actor: z.string().max(200).optional().describe('Only this actor, e.g. user:user_…'),
  subject: z.string().max(200).optional().describe('Only this subject id'),
  since: time.optional().describe('At or after this epoch ms'),
  until: time.optional().describe('Before this epoch ms'),
  limit: z.coerce.number().int().min(1).max(500).default(100).describe('Page size'),
  cursor: z
    .string()
    .regex(/^[\x21-\x7e]{1,200}$/, 'a cursor is the nextCursor of the previous page')
    .optional()
    .describe('nextCursor of the previous page'),
  order: z.enum(['asc', 'desc']).default('asc').describe('asc: oldest first; desc: newest first'),
});

const verifyResponse = z.union([
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

const keyResponse = z.object({
  algorithm: z.literal('Ed25519'),
  keyId: z.string().describe('First 16 hex digits of sha256 over the SPKI DER bytes'),
  publicKey: z.string().describe('SPKI PEM: pass it to `gatehouse audit verify --public-key`'),
});

/** The audit trail: query, export as JSON Lines, verify the chain and its signed checkpoints, the public key. */
export async function auditRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const tags = ['audit'];

  app.get(
    '/v1/audit',
    {
      schema: {
        tags,
        querystring: auditQuery,
        response: { 200: z.object({ items: z.array(auditEventSchema), nextCursor: z.string().nullable() }) },
      },
    },
    async (request) => {
      requireUser(request, 'viewer');
      const { kind, actor, subject, since, until, limit, cursor, order } = request.query;
      return services.audit.query({
        limit,
        order,
        ...(kind === undefined ? {} : { kind }),
        ...(actor === undefined ? {} : { actor }),
        ...(subject === undefined ? {} : { subject }),
        ...(since === undefined ? {} : { since }),
        ...(until === undefined ? {} : { until }),
        ...(cursor === undefined ? {} : { cursor }),
      });
    },
  );

  app.get(
    '/v1/audit/export',
    {
      schema: {
        tags,
        description:
          'Signs the head first, then JSON Lines: `{"checkpoint":{…}}` first when the trail was truncated, then one event per line (docs/audit.md)',
        produces: ['application/x-ndjson'],
      },
    },
    async (request, reply) => {
      requireUser(request, 'tech_lead');
      void reply.header('content-type', 'application/x-ndjson; charset=utf-8');
      void reply.header('content-disposition', 'attachment; filename="gatehouse-audit.jsonl"');
      return reply.send(Readable.from(services.audit.exportLines()));
    },
  );

  app.get('/v1/audit/verify', { schema: { tags, response: { 200: verifyResponse } } }, async (request) => {
    requireUser(request, 'viewer');
    return services.audit.verify();
  });

  app.get(
    '/v1/audit/key',
    {
      schema: {
        tags,
        description: 'The public key that signs audit checkpoints, for verifying an export offline',
        response: { 200: keyResponse },
      },
    },
    async (request) => {
      requireUser(request, 'viewer');
      return services.audit.publicKey();
    },
  );
}
