import { z } from 'zod';
import { WHITELIST_DAYS, WHITELIST_JUSTIFICATION_MIN } from '../limits.js';
import { defineRoute } from '../route-table/define.js';

export { WHITELIST_DAYS, WHITELIST_JUSTIFICATION_MIN };

export const whitelistIdSchema = z
  .string()
  .regex(/^wl_[A-Za-z0-9_]{1,64}$/, 'a whitelist id looks like wl_…')
  .describe('Whitelist entry id');

export const whitelistScopeSchema = z
  .enum(['global', 'file'])
  .describe('Everywhere, or the files `path` matches');

export const whitelistEntrySchema = z
  .object({
    id: z.string(),
    pattern: z.string().describe('The finding pattern it allows, e.g. lazy.error_swallowed'),
    scope: whitelistScopeSchema,
    path: z
      .string()
      .nullable()
      .describe('Glob of the files a file entry covers (`*`, `**`, `?`); null for global'),
    agentId: z.string().nullable().describe("Only this agent's findings; null for every agent"),
    justification: z.string(),
    createdBy: z.string().describe('Who created it: user:<id>'),
    createdAt: z.number().describe('Epoch ms'),
    expiresAt: z.number().describe('Epoch ms; it stops suppressing then, until renewed'),
    reviewedAt: z.number().nullable().describe('Epoch ms of the last renewal'),
    reviewGateId: z.string().nullable().describe('The re-review gate opened when it expired'),
    sourceGateId: z
      .string()
      .nullable()
      .describe('The false_positive_override gate whose `whitelist` decision created it'),
    suppressed: z.number().describe('Findings it suppressed'),
    status: z.enum(['active', 'expired']),
  })
  .describe('A whitelist entry');

/** `POST /v1/whitelists`. */
export const createWhitelistBodySchema = z
  .strictObject({
    pattern: z
      .string()
      .min(1)
      .max(200)
      .describe('A pattern id of the analysis (GET /v1/analysis/patterns); an unknown id is refused'),
    scope: whitelistScopeSchema,
    path: z
      .string()
      .min(1, 'path is empty; type the glob of the files the pattern is fine in')
      .max(1000)
      .optional()
      .describe(
        'Required for scope file: a glob naming a folder or file (`src/legacy/**`, `**/*.gen.ts`); `**`, `*.ts` and the like are refused',
      ),
    agentId: z.string().min(1).max(200).optional(),
    justification: z
      .string()
      .trim()
      .min(
        WHITELIST_JUSTIFICATION_MIN,
        `justification must say why in at least ${WHITELIST_JUSTIFICATION_MIN} characters`,
      )
      .max(2000),
  })
  .refine((body) => (body.scope === 'file') === (body.path !== undefined), {
    message: 'path is required for scope file and not allowed for scope global',
    path: ['path'],
  });

/** `POST /v1/whitelists/:id/renew`. */
export const renewWhitelistBodySchema = z.strictObject({
  justification: z.string().trim().min(WHITELIST_JUSTIFICATION_MIN).max(2000).optional(),
});

export const whitelistParamsSchema = z.strictObject({ id: whitelistIdSchema });
export const whitelistListResponseSchema = z.object({ whitelists: z.array(whitelistEntrySchema) });
export const whitelistResponseSchema = z.object({ whitelist: whitelistEntrySchema });

/** One pattern's record: detections, confirmed false positives and the rate. */
export const patternStatsSchema = z.object({
  pattern: z.string(),
  detections: z.number().describe('Findings of this pattern the analysis reported in runs'),
  falsePositives: z
    .number()
    .describe('Of them, confirmed false positives (Legitimate or Whitelist decisions)'),
  falsePositiveRate: z.number().nullable().describe('falsePositives / detections; null without detections'),
  suppressed: z.number().describe('Findings a whitelist entry suppressed'),
  examples: z
    .number()
    .describe('Confirmed-legitimate snippets that lower the confidence of similar findings'),
  alerting: z.boolean().describe('The rate is over 10 %'),
});

/** `GET /v1/analysis/patterns`. */
export const patternListResponseSchema = z.object({ patterns: z.array(patternStatsSchema) });

export type WhitelistEntry = z.infer<typeof whitelistEntrySchema>;
export type CreateWhitelistBody = z.infer<typeof createWhitelistBodySchema>;
export type RenewWhitelistBody = z.infer<typeof renewWhitelistBodySchema>;
export type WhitelistListResponse = z.infer<typeof whitelistListResponseSchema>;
export type WhitelistResponse = z.infer<typeof whitelistResponseSchema>;
export type PatternStats = z.infer<typeof patternStatsSchema>;
export type PatternListResponse = z.infer<typeof patternListResponseSchema>;

const tags = ['whitelists'];

/** Whitelist entries and the analysis patterns' rates. */
export const whitelistRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/v1/whitelists',
    tags,
    response: { 200: whitelistListResponseSchema },
  }),
  create: defineRoute({
    method: 'POST',
    path: '/v1/whitelists',
    tags,
    body: createWhitelistBodySchema,
    response: { 201: whitelistResponseSchema },
  }),
  remove: defineRoute({
    method: 'DELETE',
    path: '/v1/whitelists/:id',
    tags,
    params: whitelistParamsSchema,
    response: { 200: whitelistResponseSchema },
  }),
  renew: defineRoute({
    method: 'POST',
    path: '/v1/whitelists/:id/renew',
    tags,
    params: whitelistParamsSchema,
    body: renewWhitelistBodySchema,
    response: { 200: whitelistResponseSchema },
  }),
  patterns: defineRoute({
    method: 'GET',
    path: '/v1/analysis/patterns',
    tags: ['analysis'],
    response: { 200: patternListResponseSchema },
  }),
};
