import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type AuditEventDocument,
  auditEventDocumentSchema,
  resumeDocumentSchema,
  reviewDocumentSchema,
  runDocumentSchema,
} from 'gatehouse-hitl-protocol';
import { z } from 'zod';
import type { Extra } from './decision.js';
import { guarded, toolResult } from './results.js';
import { type ReviewContext, runOf, sessionRunInput } from './review-session.js';
import type { ArgsOf } from './schemas.js';

/** How far back the audit tools look: the newest events of the whole trail, in pages of 500. */
const AUDIT_PAGES = 10;

const trailInput = {
  runId: sessionRunInput.optional(),
  kind: z.string().min(1).max(100).optional().describe('Only this kind, e.g. gate.decided, review.commented'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(500)
    .optional()
    .describe('At most this many events, newest (default 100)'),
};

const searchInput = {
  runId: sessionRunInput.optional(),
  query: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .describe('Text to find in an event’s kind, actor, subject or data'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(500)
    .optional()
    .describe('At most this many events, newest (default 50)'),
};

const auditOutput = z.object({
  runId: z.string(),
  items: z.array(auditEventDocumentSchema).describe('The run’s events, oldest first'),
  complete: z.boolean().describe('False when older events of the run may lie beyond what was searched'),
});

const runOutput = z.object({
  run: runDocumentSchema,
  resume: resumeDocumentSchema.nullable().describe('The last decided phase review and what follows it'),
  reviews: z.array(reviewDocumentSchema).describe('The run’s reviews, newest first'),
});

/** The run's events among the newest of the trail, newest first, until `limit` match. */
async function runEvents(
  ctx: ReviewContext,
  match: (event: AuditEventDocument) => boolean,
  limit: number,
  signal: AbortSignal,
): Promise<{ items: AuditEventDocument[]; complete: boolean }> {
  const [gateIds, reviews] = await Promise.all([
    ctx.reviews.gateIds(ctx.runId, signal),
    ctx.reviews.reviews(ctx.runId, signal),
  ]);
  const subjects = new Set([ctx.runId, ...gateIds, ...reviews.items.map((review) => review.id)]);
  const ofRun = (event: AuditEventDocument) =>
    (event.subject !== null && subjects.has(event.subject)) || event.data.runId === ctx.runId;
  const found: AuditEventDocument[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < AUDIT_PAGES; page++) {
    const answer = await ctx.reviews.audit(
      { order: 'desc', limit: 500, ...(cursor === undefined ? {} : { cursor }) },
      signal,
    );
    for (const event of answer.items) {
      if (!ofRun(event) || !match(event)) continue;
      found.push(event);
      if (found.length === limit) return { items: found.reverse(), complete: true };
    }
    if (!answer.nextCursor) return { items: found.reverse(), complete: true };
    cursor = answer.nextCursor;
  }
  return { items: found.reverse(), complete: false };
}

function eventLine(event: AuditEventDocument): string {
  const data = JSON.stringify(event.data);
  const shown = data.length > 300 ? `${data.slice(0, 300)}…` : data;
  return `#${event.seq} ${new Date(event.at).toISOString()} ${event.kind} by ${event.actor} on ${event.subject ?? '-'} ${shown}`;
}

async function auditTrail(ctx: ReviewContext, args: ArgsOf<typeof trailInput>, extra: Extra) {
  const runId = runOf(ctx, args.runId);
  const kind = args.kind;
  const found = await runEvents(
    ctx,
    (event) => kind === undefined || event.kind === kind,
    args.limit ?? 100,
    extra.signal,
  );
  return toolResult({ runId, ...found }, [
    `${found.items.length} audit event(s) of run ${runId}${found.complete ? '' : ' (older ones not searched)'}`,
    ...found.items.map(eventLine),
  ]);
}

async function searchAudit(ctx: ReviewContext, args: ArgsOf<typeof searchInput>, extra: Extra) {
  const runId = runOf(ctx, args.runId);
  const needle = args.query.toLowerCase();
  const match = (event: AuditEventDocument) =>
    [event.kind, event.actor, event.subject ?? '', JSON.stringify(event.data)].some((text) =>
      text.toLowerCase().includes(needle),
    );
  const found = await runEvents(ctx, match, args.limit ?? 50, extra.signal);
  return toolResult({ runId, ...found }, [
    `${found.items.length} audit event(s) of run ${runId} match ${JSON.stringify(args.query)}`,
    ...found.items.map(eventLine),
  ]);
}

async function getRun(ctx: ReviewContext, args: { runId?: string | undefined }, extra: Extra) {
  const runId = runOf(ctx, args.runId);
  const [detail, reviews] = await Promise.all([
    ctx.api.run(runId, extra.signal),
    ctx.reviews.reviews(runId, extra.signal),
  ]);
  const { run } = detail;
  const ordered = [...reviews.items].sort((a, b) => b.createdAt - a.createdAt);
  const output = { run, resume: detail.resume ?? null, reviews: ordered };
  return toolResult(output, [
    `run ${run.id} (${run.title ?? 'untitled'}): ${run.status}, phase ${run.phaseNumber} ${run.phaseType}, autonomy ${run.autonomy}`,
    ...ordered.map(
      (review) =>
        `  review ${review.id} ${review.branch}: ${review.status}${review.gateId ? ` (gate ${review.gateId})` : ''}`,
    ),
  ]);
}

/** get_audit_trail, search_audit and get_run. */
export function registerReviewDebugTools(server: McpServer, ctx: ReviewContext): void {
  const readOnly = { readOnlyHint: true, openWorldHint: false };
  server.registerTool(
    'get_audit_trail',
    {
      title: 'The run’s audit trail',
      description:
        'The run’s audit events (its gates, decisions, reviews, pushes, interventions), oldest first; filter by kind.',
      inputSchema: z.strictObject(trailInput),
      outputSchema: auditOutput,
      annotations: readOnly,
    },
    (args, extra) => guarded(() => auditTrail(ctx, args, extra)),
  );
  server.registerTool(
    'search_audit',
    {
      title: 'Search the run’s audit trail',
      description: 'The run’s audit events whose kind, actor, subject or data contain the text (any case).',
      inputSchema: z.strictObject(searchInput),
      outputSchema: auditOutput,
      annotations: readOnly,
    },
    (args, extra) => guarded(() => searchAudit(ctx, args, extra)),
  );
  server.registerTool(
    'get_run',
    {
      title: 'The job',
      description:
        'The run this session reviews: status, phase, autonomy level, steering instructions, the last phase ' +
        'review’s outcome, and its reviews.',
      inputSchema: z.strictObject({ runId: sessionRunInput.optional() }),
      outputSchema: runOutput,
      annotations: readOnly,
    },
    (args, extra) => guarded(() => getRun(ctx, args, extra)),
  );
}
