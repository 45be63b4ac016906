import { sql } from 'kysely';
import type { TxContext } from '../db/schema.js';
import type {
  SearchChunkHit,
  SearchChunkInput,
  SearchChunkVector,
  SearchIndexRecord,
  SearchIndexStateName,
} from '../search-types.js';
import { changed, int, intOrNull } from './rows.js';

const INSERT_BATCH = 200;
const MAX_QUERY_TERMS = 32;
const HEADLINE = 'StartSel=«, StopSel=», MaxWords=35, MinWords=12, MaxFragments=2';

export async function getSearchIndex({ db }: TxContext, runId: string): Promise<SearchIndexRecord | null> {
  const row = await db
    .selectFrom('search_index_state')
    .selectAll()
    .where('run_id', '=', runId)
    .executeTakeFirst();
  if (row === undefined) return null;
  return {
    runId: row.run_id,
    state: row.state as SearchIndexStateName,
    generation: row.generation,
    ref: row.ref,
    commit: row.commit_id,
    documents: int(row.documents),
    chunks: int(row.chunks),
    semantic: int(row.semantic) === 1,
    indexedAt: intOrNull(row.indexed_at),
    error: row.error,
    updatedAt: int(row.updated_at),
  };
}

export async function beginSearchIndex(
  { db, now }: TxContext,
  input: { runId: string; generation: string },
): Promise<void> {
  await db
    .insertInto('search_index_state')
    .values({
      run_id: input.runId,
      state: 'indexing',
      generation: input.generation,
      documents: 0,
      chunks: 0,
      semantic: 0,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc.column('run_id').doUpdateSet({ state: 'indexing', generation: input.generation, updated_at: now }),
    )
    .execute();
}

export async function replaceSearchIndex(
  ctx: TxContext,
  input: {
    runId: string;
    generation: string;
    ref: string;
    commit: string | null;
    documents: number;
    chunks: SearchChunkInput[];
  },
): Promise<boolean> {
  const { db, now } = ctx;
  const semantic = input.chunks.length > 0 && input.chunks.every((chunk) => chunk.embedding !== null);
  const updated = await db
    .updateTable('search_index_state')
    .set({
      state: 'ready',
      ref: input.ref,
      commit_id: input.commit,
      documents: input.documents,
      chunks: input.chunks.length,
      semantic: semantic ? 1 : 0,
      indexed_at: now,
      error: null,
      updated_at: now,
    })
    .where('run_id', '=', input.runId)
    .where('generation', '=', input.generation)
    .executeTakeFirst();
  if (changed(updated.numUpdatedRows) === 0) return false;
  await db.deleteFrom('search_chunks').where('run_id', '=', input.runId).execute();
  for (let start = 0; start < input.chunks.length; start += INSERT_BATCH) {
    const batch = input.chunks.slice(start, start + INSERT_BATCH);
    await db
      .insertInto('search_chunks')
      .values(
        batch.map((chunk) => ({
          run_id: input.runId,
          path: chunk.path,
          source: chunk.source,
          ref: chunk.ref,
          line_start: chunk.lineStart,
          line_end: chunk.lineEnd,
          content: chunk.content,
          embedding: chunk.embedding === null ? null : vectorBytes(chunk.embedding),
        })),
      )
      .execute();
  }
  return true;
}

export async function failSearchIndex(
  { db, now }: TxContext,
  input: { runId: string; generation: string; error: string },
): Promise<boolean> {
  const result = await db
    .updateTable('search_index_state')
    .set({ state: 'failed', error: input.error.slice(0, 2000), updated_at: now })
    .where('run_id', '=', input.runId)
    .where('generation', '=', input.generation)
    .executeTakeFirst();
  return changed(result.numUpdatedRows) > 0;
}

export async function dropSearchIndex({ db }: TxContext, runId: string): Promise<boolean> {
  await db.deleteFrom('search_chunks').where('run_id', '=', runId).execute();
  const result = await db.deleteFrom('search_index_state').where('run_id', '=', runId).executeTakeFirst();
  return changed(result.numDeletedRows) > 0;
}

/** User text as an FTS5 query of quoted terms (all must match): no input can break its syntax. */
export function fts5Query(text: string): string | null {
  const terms = (text.match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, MAX_QUERY_TERMS);
  return terms.length === 0 ? null : terms.map((term) => `"${term}"`).join(' ');
}

interface HitRow {
  path: string;
  source: string;
  ref: string;
  line_start: number | string;
  line_end: number | string;
  snippet: string;
  score: number | string;
}

function toHit(row: HitRow): SearchChunkHit {
  return {
    path: row.path,
    source: row.source as SearchChunkHit['source'],
    ref: row.ref,
    lineStart: int(row.line_start),
    lineEnd: int(row.line_end),
    snippet: row.snippet,
    score: Number(row.score),
  };
}

export async function searchChunksText(
  { db, dialect }: TxContext,
  input: { runId: string; query: string; limit: number },
): Promise<SearchChunkHit[]> {
  if (dialect === 'postgres') {
    // The query builder, not raw SQL, so the store's schema applies to the table.
    const query = sql`websearch_to_tsquery('english', ${input.query})`;
    const rows = await db
      .selectFrom('search_chunks as c')
      .select(['c.path', 'c.source', 'c.ref', 'c.line_start', 'c.line_end'])
      .select([
        sql<string>`ts_headline('english', c.content, ${query}, ${HEADLINE})`.as('snippet'),
        sql<number>`ts_rank(c.tsv, ${query})`.as('score'),
      ])
      .where('c.run_id', '=', input.runId)
      .where(sql<boolean>`c.tsv @@ ${query}`)
      .orderBy('score', 'desc')
      .orderBy('c.id')
      .limit(input.limit)
      .execute();
    return rows.map(toHit);
  }
  const match = fts5Query(input.query);
  if (match === null) return [];
  const { rows } = await sql<HitRow>`
    select c.path, c.source, c.ref, c.line_start, c.line_end,
      snippet(search_chunks_fts, 0, '«', '»', '…', 24) as snippet,
      -bm25(search_chunks_fts) as score
    from search_chunks_fts join search_chunks c on c.id = search_chunks_fts.rowid
    where search_chunks_fts match ${match} and c.run_id = ${input.runId}
    order by bm25(search_chunks_fts), c.id
    limit ${input.limit}`.execute(db);
  return rows.map(toHit);
}

export async function listChunkVectors({ db }: TxContext, runId: string): Promise<SearchChunkVector[]> {
  const rows = await db
    .selectFrom('search_chunks')
    .select(['path', 'source', 'ref', 'line_start', 'line_end', 'content', 'embedding'])
    .where('run_id', '=', runId)
    .where('embedding', 'is not', null)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    path: row.path,
    source: row.source as SearchChunkVector['source'],
    ref: row.ref,
    lineStart: int(row.line_start),
    lineEnd: int(row.line_end),
    content: row.content,
    embedding: vectorOf(row.embedding ?? new Uint8Array()),
  }));
}

function vectorBytes(vector: Float32Array): Uint8Array {
  return new Uint8Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
}

function vectorOf(bytes: Uint8Array): Float32Array {
  // A copy: the driver's buffer may not start on a 4-byte boundary.
  return new Float32Array(new Uint8Array(bytes).buffer, 0, Math.floor(bytes.byteLength / 4));
}
