import { randomUUID } from 'node:crypto';
import { GatehouseError, hasRole } from 'gatehouse-hitl-core';
import type {
  SearchIndexBody,
  SearchMode,
  SearchResponse,
  SearchStatusResponse,
} from 'gatehouse-hitl-protocol';
import type { SearchIndexRecord } from 'gatehouse-hitl-store';
import type { AppContext } from '../../context.js';
import { actorOf, type Principal } from '../../http/principal.js';
import { commit } from '../commit.js';
import { invalidInput } from '../gates/gate-input.js';
import { loadReadableRun } from '../journal/journal-service.js';
import { collectDocuments, type IndexInput } from './documents.js';
import { cosine, createEmbedder, type Embedder } from './embeddings.js';

const SNIPPET_CHARS = 240;

/** What a checkpoint tells search: whether the run froze, and what to index. */
export interface CheckpointForSearch {
  freeze: boolean;
  phase: number;
  branch?: string | undefined;
  retrospective?: string | undefined;
}

/** Each run's workspace search index: built on freeze, searched by text or meaning, dropped on completion. */
export interface SearchService {
  status(principal: Principal, runId: string): Promise<SearchStatusResponse>;
  /** Starts indexing now (developer+); answers with the state, `indexing`. */
  indexNow(principal: Principal, runId: string, body: SearchIndexBody): Promise<SearchStatusResponse>;
  search(
    principal: Principal,
    runId: string,
    query: { q: string; mode: SearchMode; limit: number },
  ): Promise<SearchResponse>;
  /** Indexes in the background when the checkpoint froze the run; returns `result` untouched. */
  afterCheckpoint<T extends { freeze: boolean }>(
    runId: string,
    body: Omit<CheckpointForSearch, 'freeze'>,
    result: T,
  ): T;
  /** Resolves once every indexing this node started has finished (tests, shutdown). */
  idle(): Promise<void>;
  start(): void;
  close(): Promise<void>;
}

function statusOf(record: SearchIndexRecord | null): SearchStatusResponse {
  if (record === null) {
    return {
      state: 'none',
      documents: 0,
      chunks: 0,
      indexedAt: null,
      semantic: false,
      ref: null,
      commit: null,
    };
  }
  return {
    state: record.state,
    documents: record.documents,
    chunks: record.chunks,
    indexedAt: record.indexedAt,
    semantic: record.semantic,
    ref: record.ref,
    commit: record.commit,
    ...(record.state === 'failed' && record.error !== null ? { error: record.error } : {}),
  };
}

function semanticNotConfigured(): GatehouseError {
  return invalidInput(
    'mode',
    'semantic search needs an embeddings endpoint: set GATEHOUSE_EMBEDDINGS_URL (and _MODEL, _API_KEY) on the server, or use mode=text',
  );
}

export function createSearchService(ctx: AppContext): SearchService {
  const embed: Embedder | null =
    ctx.config.embeddings === null ? null : createEmbedder(ctx.config.embeddings);
  const running = new Set<Promise<void>>();
  let unsubscribe: (() => void) | null = null;

  async function build(input: IndexInput, generation: string): Promise<void> {
    try {
      const { commit: head, documents, chunks } = await collectDocuments(ctx, input);
      if (embed !== null && chunks.length > 0) {
        const vectors = await embed(chunks.map((chunk) => `${chunk.path}\n${chunk.content}`));
        chunks.forEach((chunk, index) => {
          chunk.embedding = vectors[index] ?? null;
        });
      }
      await commit(ctx, async ({ tx }) => {
        const run = await tx.getRun(input.runId);
        // A run that completed meanwhile keeps no index.
        if (run === null || run.status === 'completed') return tx.dropSearchIndex(input.runId);
        return tx.replaceSearchIndex({
          runId: input.runId,
          generation,
          ref: input.ref,
          commit: head,
          documents,
          chunks,
        });
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      ctx.log.warn({ runId: input.runId, err: error }, 'workspace indexing failed');
      await commit(ctx, ({ tx }) =>
        tx.failSearchIndex({ runId: input.runId, generation, error: message }),
      ).catch((failure: unknown) =>
        ctx.log.error({ runId: input.runId, err: failure }, 'could not record a failed indexing'),
      );
    }
  }

  async function begin(input: IndexInput): Promise<SearchStatusResponse> {
    const generation = randomUUID();
    const status = await commit(ctx, async ({ tx }) => {
      await tx.beginSearchIndex({ runId: input.runId, generation });
      return statusOf(await tx.getSearchIndex(input.runId));
    });
    const task = build(input, generation).finally(() => running.delete(task));
    running.add(task);
    return status;
  }

  async function searchByMeaning(runId: string, q: string, limit: number): Promise<SearchResponse['items']> {
    if (embed === null) throw semanticNotConfigured();
    const vectors = await ctx.store.read((tx) => tx.listChunkVectors(runId));
    if (vectors.length === 0) return [];
    const [query] = await embed([q]);
    if (query === undefined) return [];
    return vectors
      .map((chunk) => ({ chunk, score: cosine(query, chunk.embedding) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, limit)
      .map(({ chunk, score }) => ({
        path: chunk.path,
        source: chunk.source,
        ref: chunk.ref,
        lineStart: chunk.lineStart,
        lineEnd: chunk.lineEnd,
        snippet: chunk.content.slice(0, SNIPPET_CHARS),
        score,
      }));
  }

  return {
    status: (principal, runId) =>
      ctx.store.read(async (tx) => {
        await loadReadableRun(tx, principal, runId);
        return statusOf(await tx.getSearchIndex(runId));
      }),
    async indexNow(principal, runId, body) {
      if (principal.kind !== 'user' || !hasRole(principal.role, 'developer')) {
        await ctx.store.read((tx) => loadReadableRun(tx, principal, runId));
        throw new GatehouseError(
          'ROLE_TOO_LOW',
          'indexing a run’s workspace needs role developer or higher',
          {
            required: 'developer',
          },
        );
      }
      const ref = await commit(ctx, async ({ tx, audit }) => {
        await loadReadableRun(tx, principal, runId);
        const current = await tx.getSearchIndex(runId);
        const chosen = body?.ref ?? current?.ref ?? 'main';
        await audit({
          kind: 'run.search_index_requested',
          actor: actorOf(principal),
          subject: runId,
          data: { ref: chosen },
        });
        return chosen;
      });
      return begin({ runId, ref });
    },
    async search(principal, runId, { q, mode, limit }) {
      if (mode === 'semantic' && embed === null) throw semanticNotConfigured();
      await ctx.store.read((tx) => loadReadableRun(tx, principal, runId));
      const items =
        mode === 'semantic'
          ? await searchByMeaning(runId, q, limit)
          : await ctx.store.read((tx) => tx.searchChunksText({ runId, query: q, limit }));
      return { mode, items };
    },
    afterCheckpoint(runId, body, result) {
      if (!result.freeze) return result;
      const retrospective =
        body.retrospective === undefined ? undefined : { phase: body.phase, text: body.retrospective };
      const task: Promise<void> = begin({ runId, ref: body.branch ?? 'main', retrospective })
        .then(() => undefined)
        .catch((error: unknown) => ctx.log.warn({ runId, err: error }, 'could not start workspace indexing'))
        .finally(() => running.delete(task));
      running.add(task);
      return result;
    },
    async idle() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
    start() {
      unsubscribe = ctx.bus.subscribe((event) => {
        if (event.type !== 'run.status' || event.runId === null || event.data.status !== 'completed') return;
        const runId = event.runId;
        commit(ctx, ({ tx }) => tx.dropSearchIndex(runId)).catch((error: unknown) =>
          ctx.log.warn({ runId, err: error }, 'could not drop the search index of a completed run'),
        );
      });
    },
    async close() {
      unsubscribe?.();
      await this.idle();
    },
  };
}
