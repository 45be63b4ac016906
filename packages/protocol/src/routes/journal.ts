import { z } from 'zod';
import { canonicalJson } from '../canonical-json.js';
import { defineRoute } from '../route-table/define.js';
import { idCursorSchema, nextCursorSchema, pageLimitSchema, runIdSchema } from './ids.js';
import { runParamsSchema as params } from './runs.js';

/** Largest canonical JSON of one entry's `data`, in UTF-8 bytes. */
export const JOURNAL_DATA_MAX_BYTES = 64 * 1024;

/** Journal entry ids as the server makes them: `jrn_…`. */
export const journalEntryIdSchema = z
  .string()
  .regex(/^jrn_[A-Za-z0-9_]{1,64}$/, 'a journal entry id looks like jrn_…')
  .describe('Journal entry id');

export const journalKindSchema = z
  .enum(['chat', 'todos', 'llm_request', 'note'])
  .describe('chat (a message), todos (a snapshot of the todo list), llm_request, note');

export const todoStatusSchema = z.enum(['pending', 'in_progress', 'completed', 'cancelled']);

/** `chat`: one message of the agent's conversation. */
export const journalChatDataSchema = z.looseObject({
  role: z.string().min(1).max(100).describe('system, user, assistant, tool…'),
  content: z.string(),
});

/** `todos`: the whole todo list at one moment; the history is the sequence of snapshots. */
export const journalTodosDataSchema = z.looseObject({
  items: z.array(z.looseObject({ text: z.string().min(1).max(10_000), status: todoStatusSchema })).max(1000),
});

/** `llm_request`: one model call, for the debug tool `get_llm_request`. */
export const journalLlmRequestDataSchema = z.looseObject({
  model: z.string().min(1).max(200),
  messages: z.array(z.unknown()).optional(),
  response: z.unknown().optional(),
  usage: z
    .record(z.string(), z.number())
    .optional()
    .describe('Token counts, e.g. { inputTokens, outputTokens }'),
  durationMs: z.number().min(0).optional(),
});

/** `note`: free text the agent wants on record. */
export const journalNoteDataSchema = z.looseObject({ text: z.string().min(1) });

function utf8Length(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

function withinSize(data: unknown): boolean {
  try {
    return utf8Length(canonicalJson(data)) <= JOURNAL_DATA_MAX_BYTES;
  } catch {
    return false;
  }
}

const sizeMessage = `data must be at most ${JOURNAL_DATA_MAX_BYTES} bytes of canonical JSON; split it into several entries`;
const at = z
  .number()
  .int()
  .min(0)
  .max(8_640_000_000_000_000)
  .optional()
  .describe('When it happened, epoch ms (default: now)');

export const journalEntryInputSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('chat'),
    data: journalChatDataSchema.refine(withinSize, sizeMessage),
    at,
  }),
  z.strictObject({
    kind: z.literal('todos'),
    data: journalTodosDataSchema.refine(withinSize, sizeMessage),
    at,
  }),
  z.strictObject({
    kind: z.literal('llm_request'),
    data: journalLlmRequestDataSchema.refine(withinSize, sizeMessage),
    at,
  }),
  z.strictObject({
    kind: z.literal('note'),
    data: journalNoteDataSchema.refine(withinSize, sizeMessage),
    at,
  }),
]);

/** `POST /v1/runs/:id/journal`: the run's own agent only. */
export const appendJournalBodySchema = z.strictObject({
  entries: z.array(journalEntryInputSchema).min(1).max(100).describe('1–100 entries, stored in this order'),
});

export const appendJournalResponseSchema = z.object({
  count: z.number(),
  ids: z.array(z.string()).describe('The new entries’ ids, in the order given'),
});

export const journalEntryDocumentSchema = z
  .object({
    id: z.string().describe('Journal entry id'),
    runId: z.string(),
    kind: journalKindSchema,
    data: z.record(z.string(), z.unknown()),
    createdAt: z.number().describe('Epoch ms: the entry’s `at`, else when it was appended'),
  })
  .describe('One entry of a run’s journal');

/** `GET /v1/runs/:id/journal`: oldest (first appended) first. */
export const journalListQuerySchema = z.strictObject({
  kind: journalKindSchema.optional().describe('Only entries of this kind'),
  limit: pageLimitSchema(100),
  cursor: idCursorSchema.optional(),
});

export const journalListResponseSchema = z.object({
  items: z.array(journalEntryDocumentSchema),
  nextCursor: nextCursorSchema,
});

/** `GET /v1/runs/:id/journal/:entryId`. */
export const journalEntryParamsSchema = z.strictObject({
  id: runIdSchema,
  entryId: journalEntryIdSchema,
});

export const journalEntryResponseSchema = z.object({ entry: journalEntryDocumentSchema });

export type JournalKind = z.infer<typeof journalKindSchema>;
export type JournalEntryInput = z.input<typeof journalEntryInputSchema>;
export type AppendJournalBody = z.input<typeof appendJournalBodySchema>;
export type AppendJournalResponse = z.infer<typeof appendJournalResponseSchema>;
export type JournalEntryDocument = z.infer<typeof journalEntryDocumentSchema>;
export type JournalListQuery = z.input<typeof journalListQuerySchema>;
export type JournalListResponse = z.infer<typeof journalListResponseSchema>;
export type JournalEntryResponse = z.infer<typeof journalEntryResponseSchema>;

const tags = ['journal'];

/** The run journal: the agent appends chat, todos, LLM requests and notes; people read them. */
export const journalRoutes = {
  append: defineRoute({
    method: 'POST',
    path: '/v1/runs/:id/journal',
    tags,
    params,
    body: appendJournalBodySchema,
    response: { 201: appendJournalResponseSchema },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/v1/runs/:id/journal',
    tags,
    params,
    query: journalListQuerySchema,
    response: { 200: journalListResponseSchema },
  }),
  get: defineRoute({
    method: 'GET',
    path: '/v1/runs/:id/journal/:entryId',
    tags,
    params: journalEntryParamsSchema,
    response: { 200: journalEntryResponseSchema },
  }),
};
