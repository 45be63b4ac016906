import { z } from 'zod';
import { RISK_LEVELS } from '../enums.js';
import { defineRoute } from '../route-table/define.js';
import { gateIdSchema } from './ids.js';

/** Parts of a gate the web app reports as opened by the person looking at it. */
export const GATE_VIEW_PARTS = ['diff', 'arguments', 'findings'] as const;
export const gateViewPartSchema = z.enum(GATE_VIEW_PARTS).describe('The part of the gate that was opened');
export type GateViewPart = z.infer<typeof gateViewPartSchema>;

/** `POST /v1/gates/:id/views`. */
export const gateViewBodySchema = z.strictObject({ part: gateViewPartSchema });
export type GateViewBody = z.infer<typeof gateViewBodySchema>;

export const gatePartViewedSchema = z.object({
  gateId: z.string(),
  part: gateViewPartSchema,
  viewedAt: z.number().describe('Epoch ms of the first time this person opened this part'),
});
export type GatePartViewed = z.infer<typeof gatePartViewedSchema>;

/** Window of `GET /v1/review-health`, in days. */
export const REVIEW_HEALTH_WINDOW_DAYS = { min: 1, max: 365, default: 30 } as const;

/** `GET /v1/review-health` query. */
export const reviewHealthQuerySchema = z.strictObject({
  window: z.coerce
    .number()
    .int('window must be a whole number of days')
    .min(REVIEW_HEALTH_WINDOW_DAYS.min, 'window must be between 1 and 365 days')
    .max(REVIEW_HEALTH_WINDOW_DAYS.max, 'window must be between 1 and 365 days')
    .default(REVIEW_HEALTH_WINDOW_DAYS.default)
    .describe('Days back from now; default 30'),
});
export type ReviewHealthQuery = z.infer<typeof reviewHealthQuerySchema>;

const durationSchema = z.object({
  count: z.number(),
  medianSeconds: z.number().nullable(),
  p90Seconds: z.number().nullable(),
});

const byRiskSchema = z.object(
  Object.fromEntries(RISK_LEVELS.map((risk) => [risk, durationSchema])) as Record<
    (typeof RISK_LEVELS)[number],
    typeof durationSchema
  >,
);

const figuresSchema = z.object({
  decisions: z.number().describe('Gates this reviewer (or group) ended with a decision'),
  approvals: z.number(),
  approvalRate: z.number().nullable().describe('approvals / decisions; null without decisions'),
  timeToDecision: byRiskSchema.describe('Seconds from the gate opening to the decision, by risk'),
  fastHighRiskApprovals: z
    .number()
    .describe(
      'High and critical approvals decided faster than the floor (settings.fastApprovalFloorSeconds)',
    ),
  approvalsViewsKnown: z
    .number()
    .describe('Approvals made where the web app reports what was opened (not Slack or email)'),
  blindApprovals: z
    .number()
    .describe('Of them, approvals where the diff, arguments and findings were never opened'),
  contradicted: z
    .number()
    .describe('Approvals later contradicted: the run failed or a later decision rolled the change back'),
  loadShare: z.number().nullable().describe('decisions / all decisions in the window'),
  escalationsByTimeout: z.number().describe('Gates waiting on them that timed out'),
});

export const reviewerHealthSchema = figuresSchema.extend({
  reviewer: z.string().describe('User id'),
  name: z.string(),
  group: z.string().describe('Team, or role where no team is set'),
});

export const groupHealthSchema = figuresSchema.extend({
  group: z.string(),
  reviewers: z.number(),
});

export const rubberStampFlagSchema = z.object({
  reviewer: z.string(),
  name: z.string(),
  pattern: z.string().describe('What they do, in words: "approves high-risk in a median 1.4 s and …"'),
  signals: z.array(z.enum(['blind', 'fast', 'approves_all'])).describe('Which thresholds were crossed'),
  gateIds: z.array(z.string()).describe('The approvals that show the pattern, newest first (at most 20)'),
});

export const reviewHealthSettingsSchema = z.object({
  fastApprovalFloorSeconds: z.number().describe('A high-risk approval faster than this is "fast"'),
  minDecisions: z.number().describe('Reviewers with fewer decisions are never flagged'),
  blindShare: z.number().describe('Share of approvals with nothing opened that counts as a signal'),
  fastShare: z.number().describe('Share of high-risk approvals under the floor that counts as a signal'),
  approveAllRate: z.number().describe('Approval rate that counts as a signal'),
  signalsToFlag: z.number().describe('How many signals flag a reviewer'),
});

export const reviewHealthSchema = z.object({
  generatedAt: z.number(),
  window: z.object({ from: z.number(), to: z.number(), days: z.number() }),
  settings: reviewHealthSettingsSchema,
  totals: figuresSchema,
  reviewers: z.array(reviewerHealthSchema).describe('Most decisions first'),
  groups: z.array(groupHealthSchema).describe('Per team, or per role where no teams are set'),
  flags: z.array(rubberStampFlagSchema).describe('Reviewers whose decisions look rubber-stamped'),
  series: z.object({
    days: z.array(z.number()).describe('Start of each day in the window, epoch ms (UTC), oldest first'),
    timeToDecision: z
      .array(
        z.object({
          risk: z.enum(RISK_LEVELS),
          medianSeconds: z
            .array(z.number().nullable())
            .describe('One per day; null on days without decisions'),
        }),
      )
      .describe('Median time to decision per day, by risk'),
    approvals: z
      .array(z.object({ reviewer: z.string(), name: z.string(), counts: z.array(z.number()) }))
      .describe('Approvals per reviewer per day'),
  }),
});

export type ReviewFigures = z.infer<typeof figuresSchema>;
export type ReviewerHealth = z.infer<typeof reviewerHealthSchema>;
export type GroupHealth = z.infer<typeof groupHealthSchema>;
export type RubberStampFlag = z.infer<typeof rubberStampFlagSchema>;
export type ReviewHealthSettings = z.infer<typeof reviewHealthSettingsSchema>;
export type ReviewHealth = z.infer<typeof reviewHealthSchema>;
export type RubberStampSignal = RubberStampFlag['signals'][number];

/** The review health routes: what reviewers open of a gate, and the report. */
export const reviewHealthRoutes = {
  recordView: defineRoute({
    method: 'POST',
    path: '/v1/gates/:id/views',
    tags: ['gates'],
    summary: 'Record that the caller opened a part of a gate',
    params: z.strictObject({ id: gateIdSchema }),
    body: gateViewBodySchema,
    response: { 200: gatePartViewedSchema },
  }),
  report: defineRoute({
    method: 'GET',
    path: '/v1/review-health',
    tags: ['metrics'],
    summary: 'Review health per reviewer and role, with rubber-stamping flags (admins)',
    query: reviewHealthQuerySchema,
    response: { 200: reviewHealthSchema },
  }),
};
