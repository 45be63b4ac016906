import type {
  JournalEntryInput,
  JournalKind,
  ReviewCommentBody,
  ReviewEditBody,
  WorkspaceResponse,
} from 'gatehouse-hitl-protocol';
import {
  auditRoutes,
  gateRoutes,
  journalRoutes,
  reviewRoutes,
  searchRoutes,
  workspaceRoutes,
} from 'gatehouse-hitl-protocol';
import type { ApiOptions } from './api.js';
import { type ApiTarget, sendRoute } from './http-json.js';

/**
 * The calls of a review session: a run's workspace (files, git history), its reviews and their
 * comments and edits, search, journal and audit. Every rule is the server's; this only carries calls.
 */
export class ReviewApi {
  readonly #target: ApiTarget;

  constructor(options: ApiOptions) {
    this.#target = {
      base: options.url.replace(/\/+$/, ''),
      token: options.token,
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    };
  }

  workspace(runId: string, signal?: AbortSignal): Promise<WorkspaceResponse> {
    return sendRoute(this.#target, workspaceRoutes.summary, { params: { id: runId } }, signal);
  }

  workspaceFiles(runId: string, query: { ref?: string; path?: string }, signal?: AbortSignal) {
    return sendRoute(this.#target, workspaceRoutes.files, { params: { id: runId }, query }, signal);
  }

  workspaceFile(runId: string, query: { ref?: string; path: string }, signal?: AbortSignal) {
    return sendRoute(this.#target, workspaceRoutes.file, { params: { id: runId }, query }, signal);
  }

  log(runId: string, query: { ref?: string; path?: string; limit?: number }, signal?: AbortSignal) {
    return sendRoute(this.#target, workspaceRoutes.log, { params: { id: runId }, query }, signal);
  }

  show(runId: string, commit: string, signal?: AbortSignal) {
    return sendRoute(
      this.#target,
      workspaceRoutes.show,
      { params: { id: runId }, query: { commit } },
      signal,
    );
  }

  diff(runId: string, query: { from?: string; to: string; path?: string }, signal?: AbortSignal) {
    return sendRoute(this.#target, workspaceRoutes.diff, { params: { id: runId }, query }, signal);
  }

  search(
    runId: string,
    query: { q: string; mode: 'text' | 'semantic'; limit?: number },
    signal?: AbortSignal,
  ) {
    return sendRoute(this.#target, searchRoutes.search, { params: { id: runId }, query }, signal);
  }

  reviews(runId: string, signal?: AbortSignal) {
    return sendRoute(this.#target, reviewRoutes.listOfRun, { params: { id: runId } }, signal);
  }

  review(reviewId: string, signal?: AbortSignal) {
    return sendRoute(this.#target, reviewRoutes.get, { params: { id: reviewId } }, signal);
  }

  reviewFiles(reviewId: string, signal?: AbortSignal) {
    return sendRoute(this.#target, reviewRoutes.files, { params: { id: reviewId } }, signal);
  }

  reviewDiff(reviewId: string, path: string, signal?: AbortSignal) {
    return sendRoute(this.#target, reviewRoutes.diff, { params: { id: reviewId }, query: { path } }, signal);
  }

  reviewFile(reviewId: string, path: string, signal?: AbortSignal) {
    const query = { path, side: 'head' } as const;
    return sendRoute(this.#target, reviewRoutes.file, { params: { id: reviewId }, query }, signal);
  }

  editFile(reviewId: string, body: ReviewEditBody, signal?: AbortSignal) {
    return sendRoute(this.#target, reviewRoutes.edit, { params: { id: reviewId }, body }, signal);
  }

  comments(reviewId: string, signal?: AbortSignal) {
    return sendRoute(this.#target, reviewRoutes.comments, { params: { id: reviewId } }, signal);
  }

  comment(reviewId: string, body: ReviewCommentBody, signal?: AbortSignal) {
    return sendRoute(this.#target, reviewRoutes.comment, { params: { id: reviewId }, body }, signal);
  }

  journal(
    runId: string,
    query: { kind?: JournalKind; cursor?: string; limit?: number },
    signal?: AbortSignal,
  ) {
    return sendRoute(this.#target, journalRoutes.list, { params: { id: runId }, query }, signal);
  }

  journalEntry(runId: string, entryId: string, signal?: AbortSignal) {
    return sendRoute(this.#target, journalRoutes.get, { params: { id: runId, entryId } }, signal);
  }

  /** Appends to the run's journal; the run's own agent only. */
  appendJournal(runId: string, entries: JournalEntryInput[], signal?: AbortSignal) {
    return sendRoute(
      this.#target,
      journalRoutes.append,
      { params: { id: runId }, body: { entries } },
      signal,
    );
  }

  audit(
    query: { subject?: string; cursor?: string; limit?: number; order?: 'asc' | 'desc' },
    signal?: AbortSignal,
  ) {
    return sendRoute(this.#target, auditRoutes.query, { query }, signal);
  }

  /** The ids of a run's gates (any status), for telling its audit events apart. */
  async gateIds(runId: string, signal?: AbortSignal): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const body = await sendRoute(
        this.#target,
        gateRoutes.list,
        { query: { runId, limit: 500, cursor } },
        signal,
      );
      ids.push(...body.items.map((gate) => gate.id));
      if (!body.nextCursor) break;
      cursor = body.nextCursor;
    }
    return ids;
  }
}
