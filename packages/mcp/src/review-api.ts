import type {
  AppendJournalResponse,
  AuditPage,
  JournalEntryInput,
  JournalEntryResponse,
  JournalKind,
  JournalListResponse,
  ReviewCommentBody,
  ReviewCommentListResponse,
  ReviewCommentResponse,
  ReviewDiffResponse,
  ReviewEditBody,
  ReviewEditResponse,
  ReviewFileResponse,
  ReviewFilesResponse,
  ReviewListResponse,
  ReviewResponse,
  SearchResponse,
  WorkspaceDiffResponse,
  WorkspaceFileResponse,
  WorkspaceFilesResponse,
  WorkspaceLogResponse,
  WorkspaceResponse,
  WorkspaceShowResponse,
} from 'gatehouse-hitl-protocol';
import type { ApiOptions } from './api.js';
import { type ApiTarget, sendJson } from './http-json.js';

type Query = Record<string, string | number | undefined>;

const id = (value: string) => encodeURIComponent(value);

function withQuery(path: string, query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

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
    return this.#get(`/v1/runs/${id(runId)}/workspace`, {}, signal);
  }

  workspaceFiles(runId: string, query: { ref?: string; path?: string }, signal?: AbortSignal) {
    return this.#get<WorkspaceFilesResponse>(`/v1/runs/${id(runId)}/workspace/files`, query, signal);
  }

  workspaceFile(runId: string, query: { ref?: string; path: string }, signal?: AbortSignal) {
    return this.#get<WorkspaceFileResponse>(`/v1/runs/${id(runId)}/workspace/file`, query, signal);
  }

  log(runId: string, query: { ref?: string; path?: string; limit?: number }, signal?: AbortSignal) {
    return this.#get<WorkspaceLogResponse>(`/v1/runs/${id(runId)}/workspace/log`, query, signal);
  }

  show(runId: string, commit: string, signal?: AbortSignal) {
    return this.#get<WorkspaceShowResponse>(`/v1/runs/${id(runId)}/workspace/show`, { commit }, signal);
  }

  diff(runId: string, query: { from?: string; to: string; path?: string }, signal?: AbortSignal) {
    return this.#get<WorkspaceDiffResponse>(`/v1/runs/${id(runId)}/workspace/diff`, query, signal);
  }

  search(
    runId: string,
    query: { q: string; mode: 'text' | 'semantic'; limit?: number },
    signal?: AbortSignal,
  ) {
    return this.#get<SearchResponse>(`/v1/runs/${id(runId)}/search`, query, signal);
  }

  reviews(runId: string, signal?: AbortSignal) {
    return this.#get<ReviewListResponse>(`/v1/runs/${id(runId)}/reviews`, {}, signal);
  }

  review(reviewId: string, signal?: AbortSignal) {
    return this.#get<ReviewResponse>(`/v1/reviews/${id(reviewId)}`, {}, signal);
  }

  reviewFiles(reviewId: string, signal?: AbortSignal) {
    return this.#get<ReviewFilesResponse>(`/v1/reviews/${id(reviewId)}/files`, {}, signal);
  }

  reviewDiff(reviewId: string, path: string, signal?: AbortSignal) {
    return this.#get<ReviewDiffResponse>(`/v1/reviews/${id(reviewId)}/diff`, { path }, signal);
  }

  reviewFile(reviewId: string, path: string, signal?: AbortSignal) {
    return this.#get<ReviewFileResponse>(`/v1/reviews/${id(reviewId)}/file`, { path, side: 'head' }, signal);
  }

  editFile(reviewId: string, body: ReviewEditBody, signal?: AbortSignal) {
    return sendJson<ReviewEditResponse>(
      this.#target,
      'PUT',
      `/v1/reviews/${id(reviewId)}/file`,
      body,
      signal,
    );
  }

  comments(reviewId: string, signal?: AbortSignal) {
    return this.#get<ReviewCommentListResponse>(`/v1/reviews/${id(reviewId)}/comments`, {}, signal);
  }

  comment(reviewId: string, body: ReviewCommentBody, signal?: AbortSignal) {
    return sendJson<ReviewCommentResponse>(
      this.#target,
      'POST',
      `/v1/reviews/${id(reviewId)}/comments`,
      body,
      signal,
    );
  }

  journal(
    runId: string,
    query: { kind?: JournalKind; cursor?: string; limit?: number },
    signal?: AbortSignal,
  ) {
    return this.#get<JournalListResponse>(`/v1/runs/${id(runId)}/journal`, query, signal);
  }

  journalEntry(runId: string, entryId: string, signal?: AbortSignal) {
    return this.#get<JournalEntryResponse>(`/v1/runs/${id(runId)}/journal/${id(entryId)}`, {}, signal);
  }

  /** Appends to the run's journal; the run's own agent only. */
  appendJournal(runId: string, entries: JournalEntryInput[], signal?: AbortSignal) {
    return sendJson<AppendJournalResponse>(
      this.#target,
      'POST',
      `/v1/runs/${id(runId)}/journal`,
      { entries },
      signal,
    );
  }

  audit(
    query: { subject?: string; cursor?: string; limit?: number; order?: 'asc' | 'desc' },
    signal?: AbortSignal,
  ) {
    return this.#get<AuditPage>('/v1/audit', query, signal);
  }

  /** The ids of a run's gates (any status), for telling its audit events apart. */
  async gateIds(runId: string, signal?: AbortSignal): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const body = await this.#get<{ items: { id: string }[]; nextCursor: string | null }>(
        '/v1/gates',
        { runId, limit: 500, cursor },
        signal,
      );
      ids.push(...body.items.map((gate) => gate.id));
      if (!body.nextCursor) break;
      cursor = body.nextCursor;
    }
    return ids;
  }

  #get<T>(path: string, query: Query, signal?: AbortSignal): Promise<T> {
    return sendJson(this.#target, 'GET', withQuery(path, query), undefined, signal);
  }
}
