import { z } from 'zod';
import {
  autonomyLevelSchema,
  gateStatusSchema,
  interventionKindSchema,
  riskLevelSchema,
  runStatusSchema,
} from './enums.js';
import type { StreamEventName } from './stream-events.js';

// Each event's `data` names the fields clients may rely on; new fields may be added (loose objects),
// none is removed or changes type without a new event name.

const gateFields = {
  status: gateStatusSchema.describe('The gate’s status after the change'),
  type: z.string().describe('The gate type id'),
};
const gateEnded = {
  ...gateFields,
  outcome: z.string().describe('approved, denied, steered, timed_out or cancelled'),
  decidedBy: z.string().nullable().describe('user:…, system:timeout, or null'),
};
const timeoutFields = {
  minRole: z.string().nullable().optional(),
  timeoutAt: z.number().nullable().optional(),
  timeout: z
    .string()
    .optional()
    .describe('The timeout that fired (gate.expired, gate.escalated, gate.auto_approved)'),
};

/** The `data` of every stream event, by event name. */
export const streamEventDataSchemas = {
  'gate.opened': z.looseObject({ ...gateFields, title: z.string(), risk: riskLevelSchema }),
  'gate.vote': z.looseObject({
    ...gateFields,
    option: z.string(),
    approvals: z.number().int().describe('Approvals so far'),
    required: z.number().int().describe('Approvals the gate needs'),
  }),
  'gate.decided': z.looseObject({
    ...gateEnded,
    ...timeoutFields,
    option: z.string().optional(),
    edited: z.boolean().optional().describe('True when the person changed the arguments'),
    instructions: z.string().optional().describe('Steer instructions, verbatim'),
  }),
  'gate.expired': z.looseObject({ ...gateEnded, ...timeoutFields }),
  'gate.escalated': z.looseObject({ ...gateFields, ...timeoutFields }),
  'gate.extended': z.looseObject({ ...gateFields, timeoutAt: z.number().nullable() }),
  'gate.assigned': z.looseObject({ ...gateFields, assignees: z.array(z.string()) }),
  'gate.cancelled': z.looseObject({ ...gateEnded, reason: z.string() }),
  'gate.consumed': z.looseObject({ ...gateFields, consumedAt: z.number() }),
  'gate.steer_failed': z.looseObject({ ...gateFields, reopenedAs: z.string() }),
  'run.status': z.looseObject({
    status: runStatusSchema,
    previous: runStatusSchema.nullable(),
    reason: z.string(),
  }),
  'run.phase': z.looseObject({
    gateId: z.string().nullable(),
    autonomy: autonomyLevelSchema.nullable().optional(),
  }),
  intervention: z.looseObject({
    kind: interventionKindSchema,
    instruction: z.string().nullable(),
    at: z.number(),
    by: z.string(),
    interventionId: z.string(),
  }),
  'request.allowed': z.looseObject({
    ruleId: z.string().nullable(),
    reason: z.string(),
    payloadHash: z.string(),
    tool: z.string().nullable(),
    operation: z.string().nullable(),
    runId: z.string().nullable(),
  }),
  'request.denied': z.looseObject({
    ruleId: z.string().nullable(),
    reason: z.string(),
    payloadHash: z.string(),
    tool: z.string().nullable(),
    operation: z.string().nullable(),
    runId: z.string().nullable(),
  }),
  'workspace.pushed': z.looseObject({ refs: z.array(z.unknown()) }),
  'review.updated': z.looseObject({ runId: z.string(), reviewId: z.string(), status: z.string() }),
  'analysis.false_positive_rate': z.looseObject({
    pattern: z.string(),
    detections: z.number(),
    falsePositives: z.number(),
    rate: z.number().nullable(),
    threshold: z.number(),
  }),
  'analysis.recorded': z.looseObject({ findings: z.array(z.unknown()), gates: z.array(z.string()) }),
} as const satisfies Record<StreamEventName, z.ZodType>;

/** The `data` of the stream event `T`. */
export type StreamEventData<T extends StreamEventName> = z.input<(typeof streamEventDataSchemas)[T]>;

const envelope = {
  seq: z.number().int().describe('The stream position; resume after it with Last-Event-ID'),
  runId: z.string().nullable(),
  agentId: z.string().nullable(),
  gateId: z.string().nullable(),
  at: z.number().describe('Epoch ms when the change committed'),
};

/** One event as the run and inbox streams send it in an SSE `data:` line. */
export const streamEventSchema = z.discriminatedUnion(
  'type',
  Object.entries(streamEventDataSchemas).map(([type, data]) =>
    z.object({ ...envelope, type: z.literal(type), data }),
  ) as unknown as [
    z.ZodObject<{ type: z.ZodLiteral<StreamEventName> }>,
    ...z.ZodObject<{ type: z.ZodLiteral<StreamEventName> }>[],
  ],
);

/** One stream event, typed by its name. */
export type StreamEventOf<T extends StreamEventName> = {
  seq: number;
  type: T;
  runId: string | null;
  agentId: string | null;
  gateId: string | null;
  at: number;
  data: z.output<(typeof streamEventDataSchemas)[T]>;
};

/** Reads one stream event; throws naming the field when it does not match its event's schema. */
export function parseStreamEvent(value: unknown): StreamEventOf<StreamEventName> {
  return streamEventSchema.parse(value) as StreamEventOf<StreamEventName>;
}

/** Throws, naming the event and the field, when `data` does not match the schema of event `type`. */
export function checkStreamEventData(type: StreamEventName, data: unknown): void {
  const result = streamEventDataSchemas[type].safeParse(data);
  if (result.success) return;
  const issue = result.error.issues[0];
  throw new Error(
    `stream event ${type}: data.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`,
  );
}
