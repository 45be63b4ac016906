import { z } from 'zod';
import { defineRoute } from '../route-table/define.js';
import { runParamsSchema as params } from './runs.js';

export const searchModeSchema = z
  .enum(['text', 'semantic'])
  .describe('text: the database’s full-text index; semantic: embeddings (needs GATEHOUSE_EMBEDDINGS_URL)');

export const searchSourceSchema = z
  .enum(['file', 'retrospective', 'todos'])
  .describe('file (a text file of the branch), retrospective (a phase retrospective), todos (todo history)');

/** `GET /v1/runs/:id/search?q=&mode=&limit=`. */
export const searchQuerySchema = z.strictObject({
  q: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .describe('What to look for; any text (it is never parsed as query syntax)'),
  mode: searchModeSchema.default('text'),
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Most results'),
});

export const searchHitSchema = z.object({
  path: z.string().describe('The file, or retrospective/phase-N, or todos'),
  source: searchSourceSchema,
  ref: z.string().describe('The branch (or main) the index was built from'),
  lineStart: z.number().describe('First line of the chunk, from 1'),
  lineEnd: z.number().describe('Last line of the chunk'),
  snippet: z.string().describe('Text around the match; matched words between « and » in text mode'),
  score: z
    .number()
    .describe('Higher is better: bm25/ts_rank in text mode, cosine similarity in semantic mode'),
});

export const searchResponseSchema = z.object({
  mode: searchModeSchema,
  items: z.array(searchHitSchema),
});

export const searchIndexStateSchema = z
  .enum(['none', 'indexing', 'ready', 'failed'])
  .describe('none (never indexed, or dropped on completion), indexing, ready, failed');

/** `GET /v1/runs/:id/search/status`, and the answer of `POST /v1/runs/:id/search/index`. */
export const searchStatusResponseSchema = z.object({
  state: searchIndexStateSchema,
  documents: z.number().describe('Documents in the index that is searched now'),
  chunks: z.number().describe('Chunks in the index that is searched now'),
  indexedAt: z.number().nullable().describe('When the searchable index was built, epoch ms'),
  semantic: z.boolean().describe('True when the index holds embeddings (semantic search works)'),
  ref: z.string().nullable().optional().describe('The branch the index was built from'),
  commit: z.string().nullable().optional().describe('The commit the index was built from'),
  error: z.string().optional().describe('Why the last indexing failed (the previous index, if any, stays)'),
});

/** `POST /v1/runs/:id/search/index` (developer+): index now, in the background. */
export const searchIndexBodySchema = z
  .strictObject({
    ref: z
      .string()
      .regex(
        /^(main|phase-[1-9][0-9]{0,4}-(strategic|tactical)(-rev-[1-9][0-9]{0,3})?)$/,
        'ref is main or a phase branch (phase-N-type, phase-N-type-rev-M)',
      )
      .optional()
      .describe('The branch to index (default: the open review’s branch, else main)'),
  })
  .optional();

export type SearchMode = z.infer<typeof searchModeSchema>;
export type SearchSource = z.infer<typeof searchSourceSchema>;
export type SearchQuery = z.input<typeof searchQuerySchema>;
export type SearchHit = z.infer<typeof searchHitSchema>;
export type SearchResponse = z.infer<typeof searchResponseSchema>;
export type SearchIndexState = z.infer<typeof searchIndexStateSchema>;
export type SearchStatusResponse = z.infer<typeof searchStatusResponseSchema>;
export type SearchIndexBody = z.input<typeof searchIndexBodySchema>;

const tags = ['search'];

/** Workspace search: full-text and semantic, over the index built when the run froze. */
export const searchRoutes = {
  search: defineRoute({
    method: 'GET',
    path: '/v1/runs/:id/search',
    tags,
    params,
    query: searchQuerySchema,
    response: { 200: searchResponseSchema },
  }),
  status: defineRoute({
    method: 'GET',
    path: '/v1/runs/:id/search/status',
    tags,
    params,
    response: { 200: searchStatusResponseSchema },
  }),
  index: defineRoute({
    method: 'POST',
    path: '/v1/runs/:id/search/index',
    tags,
    params,
    body: searchIndexBodySchema,
    response: { 202: searchStatusResponseSchema },
  }),
};
