import { z } from 'zod';
import { defineRoute } from '../route-table/define.js';
import { runIdSchema } from './ids.js';

/** `POST /v1/confidence`. */
export const confidenceReportBodySchema = z
  .strictObject({
    runId: runIdSchema
      .optional()
      .describe('The run the report is about (its threshold applies when it set one)'),
    score: z
      .number()
      .int('must be a whole number from 0 to 100; for a fraction use confidence (0-1)')
      .min(0)
      .max(100)
      .optional()
      .describe('Confidence 0–100, a whole number; give exactly one of score or confidence'),
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

export const confidenceReportResponseSchema = z.object({
  id: z.string().describe('Report id'),
  confidence: z.number().describe('The reported confidence on the 0–1 scale, as stored'),
  band: z.enum(['high', 'medium', 'low', 'zero']).describe('high ≥ 0.8, medium ≥ 0.5, low ≥ 0.2, zero below'),
  threshold: z.number().describe('The threshold (0–100) the report was held against'),
  escalated: z.boolean().describe('True when a confidence_threshold gate was opened'),
  abortSubtask: z
    .boolean()
    .describe(
      'True in the zero band (below 0.2): stop the subtask and wait for the gate’s decision, which sees the diagnostics',
    ),
  gateId: z.string().nullable().describe('That gate'),
  reason: z.string().describe('Why it did or did not escalate'),
});

export type ConfidenceReportBody = z.input<typeof confidenceReportBodySchema>;
export type ConfidenceReportResponse = z.infer<typeof confidenceReportResponseSchema>;

/** Confidence reports from agents. */
export const confidenceRoutes = {
  report: defineRoute({
    method: 'POST',
    path: '/v1/confidence',
    tags: ['confidence'],
    body: confidenceReportBodySchema,
    response: { 200: confidenceReportResponseSchema },
  }),
};
