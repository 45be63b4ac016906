import { z } from 'zod';
import { defineRoute } from '../route-table/define.js';
import { gateDocumentSchema } from './gate-document.js';
import { runIdSchema } from './ids.js';
import { runParamsSchema } from './runs.js';

/** Largest unified diff `POST /v1/analyze` takes, in characters (the body limit applies too). */
export const ANALYZE_DIFF_MAX_CHARS = 1_000_000;
/** Most files of one `files` change. */
export const ANALYZE_FILES_MAX = 500;
/**
 * Most lines one analysis takes (a diff's own lines, or files' lines before and after together):
 * parsing and comparing take about 0.3 ms a line.
 */
export const ANALYZE_LINES_MAX = 40_000;

const fileText = z.string().max(ANALYZE_DIFF_MAX_CHARS).nullable();

/** One file of a before/after change; null for an added (before) or deleted (after) file. */
export const analyzeFileSchema = z.strictObject({
  path: z.string().min(1).max(1000).describe('Workspace-relative path after the change'),
  oldPath: z.string().min(1).max(1000).optional().describe('Path before a rename'),
  before: fileText.describe('The file before the change; null when added'),
  after: fileText.describe('The file after the change; null when deleted'),
});

const coveragePercentSchema = z.strictObject({
  linePercent: z.number().min(0).max(100).describe('Covered lines in percent'),
});

/** Coverage before and after: report texts (lcov, Istanbul JSON summary, Cobertura XML) or line percentages. */
export const analyzeCoverageSchema = z.union([
  z.strictObject({
    before: z.string().min(1).max(ANALYZE_DIFF_MAX_CHARS),
    after: z.string().min(1).max(ANALYZE_DIFF_MAX_CHARS),
  }),
  z.strictObject({ before: coveragePercentSchema, after: coveragePercentSchema }),
]);

/** Most test results one analysis takes. */
export const ANALYZE_TESTS_MAX = 1000;

/** One test result the agent saw after the change. */
export const reportedTestSchema = z.strictObject({
  name: z.string().min(1).max(500).describe('The test, as the finding names it'),
  file: z.string().min(1).max(1000).optional().describe('The file the test is in'),
  outcome: z.enum(['pass', 'fail']),
});

/** `POST /v1/analyze`. */
export const analyzeBodySchema = z
  .strictObject({
    runId: runIdSchema
      .optional()
      .describe('The run the change belongs to; its agent only. Without it nothing is opened'),
    diff: z
      .string()
      .min(1)
      .max(ANALYZE_DIFF_MAX_CHARS)
      .optional()
      .describe('A unified diff (git diff); give exactly one of diff or files'),
    files: z
      .array(analyzeFileSchema)
      .min(1)
      .max(ANALYZE_FILES_MAX)
      .optional()
      .describe('Files before and after; give exactly one of diff or files'),
    coverage: analyzeCoverageSchema.optional().describe('Coverage before and after the change'),
    action: z
      .strictObject({
        tool: z.string().min(1).max(200),
        args: z.record(z.string(), z.unknown()).default({}),
      })
      .optional()
      .describe('The agent action this change belongs to; gates opened bind to it'),
    tests: z
      .array(reportedTestSchema)
      .max(ANALYZE_TESTS_MAX)
      .optional()
      .describe(
        'Test results the agent saw after this change (with runId): a test whose results alternate while its file stays the same is a flaky failure, escalated to a person',
      ),
  })
  .refine((body) => (body.diff === undefined) !== (body.files === undefined), {
    message: 'give exactly one of diff (a unified diff) or files ([{ path, before, after }])',
    path: ['diff'],
  });

export const severitySchema = z.enum(['low', 'medium', 'high', 'critical']);

/** One thing the analysis noticed, with the key that names it across analyses of a run. */
export const findingDocumentSchema = z.object({
  key: z.string().describe('pattern|file|name (or line): the same finding across analyses'),
  kind: z.string().describe('test_removed, skip_added, laziness…'),
  pattern: z.string().describe('Pattern id from the catalog (docs/analysis.md)'),
  severity: severitySchema,
  confidence: z.number().min(0).max(1).describe('How sure the detection is, 0–1'),
  file: z.string(),
  line: z.number().int().nullable().describe('1-based line; null for a whole file'),
  name: z.string().nullable().describe('The test, export or function the finding is about'),
  message: z.string(),
});

export const changeFactsSchema = z.object({
  testsRemoved: z.number().int(),
  testsAdded: z.number().int(),
  replacementTests: z.number().int(),
  assertionsRemoved: z.number().int(),
  assertionsWeakened: z.number().int(),
  skipPatternsAdded: z.number().int(),
  featuresRemoved: z.number().int(),
  coverageDelta: z.number().nullable().describe('Percentage points after − before; null without coverage'),
  lazinessFindings: z.number().int(),
});

export const analysisVerdictSchema = z.object({
  destructive: z.object({
    triggered: z.boolean().describe('A destructive_action gate is needed'),
    rules: z.array(z.string()).describe('Trigger rules that matched (test_deletion, test_skip…)'),
    reasons: z.array(z.string()),
    autoApproved: z
      .string()
      .nullable()
      .describe('The auto-approve condition that held (legitimate_test_refactoring…)'),
  }),
  laziness: z.array(z.string()).describe('Keys of laziness findings: each starts or continues a recovery'),
  lowConfidence: z
    .array(z.string())
    .describe('Keys of findings below confidence 0.7: each needs a false_positive_override gate'),
});

export const analyzeResponseSchema = z.object({
  findings: z.array(findingDocumentSchema),
  facts: changeFactsSchema,
  verdict: analysisVerdictSchema,
  gates: z.array(gateDocumentSchema).describe('Gates opened (only with runId)'),
  durationMs: z.number(),
});

/** `POST /v1/analyze/findings/report`: a person says a finding is wrong. */
export const findingReportBodySchema = z.strictObject({
  runId: runIdSchema.optional().describe('The run the finding was made in'),
  finding: z.strictObject({
    pattern: z
      .string()
      .min(1)
      .max(200)
      .describe('A pattern id of the analysis (GET /v1/analysis/patterns); an unknown id is refused'),
    file: z.string().min(1).max(1000),
    line: z.number().int().min(1).nullable().optional(),
    name: z.string().min(1).max(500).nullable().optional(),
    confidence: z.number().min(0).max(1).optional(),
  }),
  reason: z.string().min(1).max(4000).describe('Why the finding is wrong; shown on the gate'),
});

export const findingReportResponseSchema = z.object({ gate: gateDocumentSchema });

export const recoveryAttemptDocumentSchema = z.object({
  attempt: z.number().int(),
  at: z.number().int(),
  fingerprint: z.string().describe('SHA-256 of the file at this attempt: the same twice is a loop'),
  line: z.number().int().nullable(),
  message: z.string(),
});

/** One laziness finding's recovery in a run. */
export const recoveryDocumentSchema = z.object({
  key: z.string(),
  pattern: z.string(),
  file: z.string(),
  name: z.string().nullable(),
  line: z.number().int().nullable(),
  severity: z.string(),
  status: z.enum(['recovering', 'escalated', 'resolved']),
  attempts: z.number().int().describe('Attempts since detection or the last retry decision; at most 3'),
  maxAttempts: z.number().int(),
  history: z.array(recoveryAttemptDocumentSchema),
  gateId: z.string().nullable().describe('The recovery_escalation gate'),
  escalatedBy: z.array(z.string()).describe('Core trigger rules that escalated it'),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});

export const recoveryListResponseSchema = z.object({ recoveries: z.array(recoveryDocumentSchema) });

export type AnalyzeBody = z.input<typeof analyzeBodySchema>;
export type AnalyzeResponse = z.infer<typeof analyzeResponseSchema>;
export type FindingDocument = z.infer<typeof findingDocumentSchema>;
export type FindingReportBody = z.input<typeof findingReportBodySchema>;
export type FindingReportResponse = z.infer<typeof findingReportResponseSchema>;
export type RecoveryDocument = z.infer<typeof recoveryDocumentSchema>;
export type RecoveryListResponse = z.infer<typeof recoveryListResponseSchema>;

const tags = ['analysis'];

/** Change analysis: findings and verdicts, findings reported wrong, recovery state. */
export const analysisRoutes = {
  analyze: defineRoute({
    method: 'POST',
    path: '/v1/analyze',
    tags,
    body: analyzeBodySchema,
    response: { 200: analyzeResponseSchema },
  }),
  reportFinding: defineRoute({
    method: 'POST',
    path: '/v1/analyze/findings/report',
    tags,
    body: findingReportBodySchema,
    response: { 201: findingReportResponseSchema },
  }),
  recoveries: defineRoute({
    method: 'GET',
    path: '/v1/runs/:id/recoveries',
    tags,
    params: runParamsSchema,
    response: { 200: recoveryListResponseSchema },
  }),
};
