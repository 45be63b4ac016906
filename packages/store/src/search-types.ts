import type { Generated } from 'kysely';
import type { Page } from './types.js';

/** Row shapes of the journal and search tables, as Kysely sees them. */
export interface JournalEntriesTable {
  seq: Generated<number>;
  id: string;
  run_id: string;
  kind: string;
  data: string;
  created_at: number;
}

export interface SearchIndexStateTable {
  run_id: string;
  state: string;
  generation: string;
  ref: string | null;
  commit_id: string | null;
  documents: number;
  chunks: number;
  semantic: number;
  indexed_at: number | null;
  error: string | null;
  updated_at: number;
}

export interface SearchChunksTable {
  id: Generated<number>;
  run_id: string;
  path: string;
  source: string;
  ref: string;
  line_start: number;
  line_end: number;
  content: string;
  embedding: Uint8Array | null;
}

/** One entry of a run's journal; `data` is the agent's JSON object. */
export interface JournalEntryRecord {
  id: string;
  runId: string;
  kind: string;
  data: Record<string, unknown>;
  createdAt: number;
}

export interface JournalFilter {
  runId: string;
  kind?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

export type SearchIndexStateName = 'indexing' | 'ready' | 'failed';

/** A run's search index: its state and the generation of chunks that is searched. */
export interface SearchIndexRecord {
  runId: string;
  state: SearchIndexStateName;
  generation: string;
  ref: string | null;
  commit: string | null;
  documents: number;
  chunks: number;
  semantic: boolean;
  indexedAt: number | null;
  error: string | null;
  updatedAt: number;
}

/** A chunk of an indexed document, with its embedding when semantic search is configured. */
export interface SearchChunkInput {
  path: string;
  source: 'file' | 'retrospective' | 'todos';
  ref: string;
  lineStart: number;
  lineEnd: number;
  content: string;
  embedding: Float32Array | null;
}

export interface SearchChunkHit {
  path: string;
  source: SearchChunkInput['source'];
  ref: string;
  lineStart: number;
  lineEnd: number;
  snippet: string;
  score: number;
}

/** A stored chunk with its vector, for ranking by cosine similarity. */
export interface SearchChunkVector {
  path: string;
  source: SearchChunkInput['source'];
  ref: string;
  lineStart: number;
  lineEnd: number;
  content: string;
  embedding: Float32Array;
}

/** The run journal: what the agent said, planned and asked its model. */
export interface JournalRepo {
  insertJournalEntries(entries: JournalEntryRecord[]): Promise<void>;
  /** Oldest (first appended) first. */
  listJournalEntries(filter: JournalFilter): Promise<Page<JournalEntryRecord>>;
  getJournalEntry(runId: string, id: string): Promise<JournalEntryRecord | null>;
}

/** Each run's workspace search index. */
export interface SearchIndexRepo {
  getSearchIndex(runId: string): Promise<SearchIndexRecord | null>;
  /** Marks the run as indexing under `generation` (creating its row); the searchable chunks stay. */
  beginSearchIndex(input: { runId: string; generation: string }): Promise<void>;
  /**
   * Replaces the run's chunks and marks it ready, only while `generation` is still the run's
   * (a later indexing or a drop wins); false when it is not.
   */
  replaceSearchIndex(input: {
    runId: string;
    generation: string;
    ref: string;
    commit: string | null;
    documents: number;
    chunks: SearchChunkInput[];
  }): Promise<boolean>;
  /** Marks the indexing of `generation` failed; the previous chunks stay searchable. */
  failSearchIndex(input: { runId: string; generation: string; error: string }): Promise<boolean>;
  /** Removes the run's chunks and state; false when there was none. */
  dropSearchIndex(runId: string): Promise<boolean>;
  /** Full-text search in the run's chunks with the database's own index, best first. */
  searchChunksText(input: { runId: string; query: string; limit: number }): Promise<SearchChunkHit[]>;
  /** Every chunk of the run that has an embedding. */
  listChunkVectors(runId: string): Promise<SearchChunkVector[]>;
}
