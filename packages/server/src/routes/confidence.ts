import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { requireAgent } from '../http/principal.js';
import type { Services } from '../services/index.js';
import { runIdSchema } from './gate-schemas.js';

const reportBody = z
  .strictObject({
    runId: runIdSchema
      .optional()
      .describe('The run the report is about (its threshold applies when it set one)'),
    score: z
      .number()
      .min(0)
      .max(100)
      .optional()
      .describe('Confidence 0–100; give exactly one of score or confidence'),
    confidence: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('Confidence 0–1; give exactly one of score or confidence'),
    reasons: z
      .array(z.string().max(2000))
      .max(50)
      .default([])
      .describe(
        'Why the agent is (not) confident; shown to the reviewer (hidden characters shown as ⟨U+…⟩ markers)',
      ),
    taskId: z.string().min(1).max(200).optional().describe('The task or subtask the report is about'),
  })
  .refine((body) => (body.score === undefined) !== (body.confidence === undefined), {
    message: 'give exactly one of score (0-100) or confidence (0-1)',
    path: ['score'],
  });

const reportResponse = z.object({
  id: z.string().describe('Report id'),
  confidence: z.number().describe('The reported confidence on the 0–1 scale, as stored'),
  band: z.enum(['high', 'medium', 'low', 'zero']).describe('high ≥ 0.8, medium ≥ 0.5, low ≥ 0.2, zero below'),
  threshold: z.number().describe('The threshold (0–100) the report was held against'),
  escalated: z.boolean().describe('True when a confidence_threshold gate was opened'),
  gateId: z.string().nullable().describe('That gate'),
  reason: z.string().describe('Why it did or did not escalate'),
});

/** Confidence reports from agents. */
export async function confidenceRoutes(
  base: FastifyInstance,
  _ctx: AppContext,
  services: Services,
): Promise<void> {
  const app = base.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/v1/confidence',
    { schema: { tags: ['confidence'], body: reportBody, response: { 200: reportResponse } } },
    async (request) => services.confidence.report(requireAgent(request), request.body),
  );
}
